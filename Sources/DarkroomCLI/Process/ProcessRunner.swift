import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomSources
import Foundation

/// Runs a `ProcessPlan` through an `ImagePipeline` and writes every result. Different images go
/// to different cores (for thumbnails that beats splitting one small image); the pipeline keeps
/// fetching, pixel work and cache I/O on their own bounded pools.
struct ProcessRunner: Sendable {
    var plan: ProcessPlan
    var chain: ProcessorChain
    var pipeline: ImagePipeline
    var output: OutputOptions
    /// Images in flight at once. With network sources more than the CPU count may wait on the
    /// network while others compute.
    var inFlight: Int

    /// Processes everything, starting the most expensive inputs first (`LargestFirst`); `onRecord`
    /// is called once per input as each finishes (any order).
    func run(onRecord: @escaping @Sendable (ProcessRecord) -> Void) async -> (succeeded: Int, failed: Int) {
        var succeeded = 0
        var failed = 0
        let items = LargestFirst.ordered(plan.items, workingDirectory: FileManager.default.currentDirectoryPath) { $0.input }
        await withTaskGroup(of: ProcessRecord.self) { group in
            var next = 0
            func startNext() {
                guard next < items.count else { return }
                let item = items[next]
                next += 1
                group.addTask { await processOne(item) }
            }
            // Back-pressure: only `inFlight` items at once; the next starts when one ends.
            for _ in 0..<max(1, inFlight) { startNext() }
            for await record in group {
                if record.ok { succeeded += 1 } else { failed += 1 }
                onRecord(record)
                startNext()
            }
        }
        return (succeeded, failed)
    }

    private func processOne(_ item: ProcessPlan.Item) async -> ProcessRecord {
        do {
            let request = ImageRequest(source: SourceReference(item.input), chain: chain, output: output)
            let result = try await pipeline.retrieve(request)
            let path = try item.destination.path(for: result.format)
            let bytes = result.bytes
            try await pipeline.runBlocking { try FileIO.writeAtomically(bytes, to: path) }
            let t = result.timings
            return ProcessRecord(
                input: item.input, ok: true, output: path, format: result.format.rawValue,
                width: result.size.width, height: result.size.height, bytes: result.bytes.count,
                cache: result.origin.rawValue,
                ms: .init(
                    fetch: Self.round(t.fetch), decode: Self.round(t.decode), process: Self.round(t.process),
                    encode: Self.round(t.encode), store: Self.round(t.store), total: Self.round(t.total)),
                source: result.source.map {
                    .init(
                        format: $0.format.rawValue, width: $0.uprightSize.width, height: $0.uprightSize.height,
                        frames: $0.frameCount, origin: result.sourceOrigin?.rawValue)
                },
                firstFrameOnly: result.source.map { _ in result.processedFirstFrameOnly })
        } catch {
            return ProcessRecord(
                input: item.input, ok: false,
                error: .init(code: ErrorReport.code(of: error), message: ErrorReport.message(of: error, input: item.input)))
        }
    }

    static func round(_ ms: Double) -> Double { (ms * 100).rounded() / 100 }
}
