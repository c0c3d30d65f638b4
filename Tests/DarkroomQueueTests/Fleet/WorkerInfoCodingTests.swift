import DarkroomQueue
import DarkroomSchema
import Foundation
import Testing

@Suite("The heartbeat record (WorkerInfo) as JSON")
struct WorkerInfoCodingTests {
    static let older = """
        {"concurrency":2,"host":"h","jobsDone":3,"name":"w1","pid":7,"processors":{"blur":1},\
        "seenAt":"2026-11-25T10:00:00.000Z","startedAt":"2026-11-25T09:00:00.000Z","version":"0.1.0"}
        """

    @Test("Given a record from a worker older than schemas, when it is read, then it has its processors and no schemas")
    func olderRecordDecodes() throws {
        let info = try RecordJSON.decoder().decode(WorkerInfo.self, from: Data(Self.older.utf8))
        #expect(info.processors == ["blur": 1])
        #expect(info.schemas.isEmpty)
        #expect(info.modules.isEmpty)
        #expect(info.jobsDone == 3)
    }

    @Test("Given a record with plugin modules, when it is written and read back, then the modules and their versions are there")
    func modulesRoundTrip() throws {
        let info = WorkerInfo(
            name: "w1", host: "h", pid: 7, concurrency: 2, processors: ["invert": 1], modules: ["standard": "0.1.0", "example-c": "1.0.0"],
            version: "0.1.0", startedAt: Timestamp(millisecondsSince1970: 0), seenAt: Timestamp(millisecondsSince1970: 1000))
        let data = try RecordJSON.encoder().encode(info)
        #expect(String(decoding: data, as: UTF8.self).contains(#""modules":{"example-c":"1.0.0","standard":"0.1.0"}"#))
        #expect(try RecordJSON.decoder().decode(WorkerInfo.self, from: data).modules == info.modules)
    }

    @Test("Given a record with schemas, when it is written and read back, then it is equal, and a reader without schemas ignores them")
    func schemasRoundTrip() throws {
        let schema = ProcessorSchema(
            name: "sepia", version: 2, summary: "warm", module: .init(name: "acme", version: "1.0"),
            parameters: [.init(name: "tone", kind: .choice(["warm", "cold"]), defaultText: "warm", summary: "which tone")])
        let info = WorkerInfo(
            name: "w1", host: "h", pid: 7, concurrency: 2, processors: ["sepia": 2], schemas: [schema], version: "0.2.0",
            startedAt: Timestamp(millisecondsSince1970: 0), seenAt: Timestamp(millisecondsSince1970: 1000))
        let data = try RecordJSON.encoder().encode(info)
        #expect(try RecordJSON.decoder().decode(WorkerInfo.self, from: data) == info)

        /// The record as a build before schemas declared it.
        struct OlderReader: Decodable {
            var name: String
            var processors: [String: Int]
        }
        #expect(try RecordJSON.decoder().decode(OlderReader.self, from: data).processors == ["sepia": 2])
    }

    @Test("Given a record whose schemas this build cannot all read, when it is read, then the worker keeps the readable ones")
    func unreadableSchemaIsLeftOut() throws {
        let json = Self.older.replacingOccurrences(
            of: #""version":"0.1.0"}"#,
            with: #""version":"0.1.0","schemas":[{"schema":1,"name":"blur","version":1,"parameters":[{"name":"radius","kind":"positive"}]},"#
                + #"{"schema":1,"name":"swirl","version":1,"parameters":[{"name":"radius","kind":"spiral"}]}]}"#)
        let info = try RecordJSON.decoder().decode(WorkerInfo.self, from: Data(json.utf8))
        #expect(info.schemas.map(\.name) == ["blur"])
        #expect(info.schemas.first?.parameters.first?.kind == .positive(max: nil))
    }
}
