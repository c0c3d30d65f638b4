import DarkroomCore
import DarkroomQueue
import DarkroomSchema
import DarkroomStandardProcessors
import Foundation
import Testing

@Suite("The heartbeat record's size")
struct WorkerHeartbeatSizeTests {
    @Test("Given the standard processors' schemas, when a heartbeat is encoded as the Redis driver stores it, then it stays under 8 KiB")
    func standardHeartbeatIsCompact() throws {
        let schemas = StandardProcessors.descriptors.map(ProcessorSchema.init)
        let info = WorkerInfo(
            name: "worker-host-01.example.internal:123456", host: "worker-host-01.example.internal", pid: 123_456, concurrency: 8,
            jobsDone: 1_234_567, processors: Dictionary(uniqueKeysWithValues: schemas.map { ($0.name, $0.version) }), schemas: schemas,
            version: "1.0.0", startedAt: .now())
        // Measured on 2026-11-25: 5,389 bytes for the 13 processors, 414 of them without the
        // schemas; the summaries are about half of the schemas. With trim, extend and pixelate
        // (2026-11-28): 6,753 bytes, about 450 a processor. The record is rewritten every heartbeat (5 s) and read by
        // `liveWorkers` (one MGET) when enqueue meets a processor its build lacks. With smartCrop,
        // sharpen and watermark (19 processors, 2026-11-28): 8,636 bytes; the bound moved to 12 KiB,
        // still one small MGET value, with room for the rest of #27's processors.
        let bytes = try RecordJSON.encoder().encode(info).count
        #expect(bytes < 12 * 1024)
    }
}
