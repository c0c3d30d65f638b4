import DarkroomQueue
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomRedis

/// Where jobs that require capabilities live in Redis: a stream per priority and requirement set,
/// registered in `{p}:lanes`, out of reach of a reader of the three plain streams.
@Suite("RedisStreamsQueue capability lanes in Redis")
struct RedisStreamsQueueLaneLayoutTests {
    typealias Kit = StreamsTestKit

    static func job(_ name: String, requires: [String]?, notBefore: Timestamp? = nil) -> Job {
        var job = Kit.job(name, notBefore: notBefore)
        job.requires = requires
        return job
    }

    @Test(
        "Given a job requiring output-name, then it is in {p}:jobs:normal/output-name with the workers group, registered in {p}:lanes, and a reader of the three plain streams gets nothing"
    )
    func laneStreamAndRegistry() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("lanes"))
        _ = try await queue.enqueue([Self.job("a", requires: ["output-name"])])
        let lane = queue.keyPrefix + ":jobs:normal/output-name"
        #expect(try await client.command(["XLEN", lane]).integer == 1)
        #expect(try await client.command(["SMEMBERS", queue.keys.lanes]).array?.compactMap(\.string) == ["normal/output-name"])
        let groups = try #require(try await client.command(["XINFO", "GROUPS", lane]).array)
        #expect(groups.count == 1)
        // What a worker from before capabilities reads: the three plain streams.
        let old = try await client.command(
            ["XREADGROUP", "GROUP", "workers", "old", "COUNT", "10", "STREAMS"] + queue.keys.streams + [">", ">", ">"])
        let oldEntries = old.isNull ? 0 : try StreamReplies.streams(old).reduce(0) { $0 + $1.entries.count }
        #expect(oldEntries == 0)
        let counts = try await queue.counts()
        #expect(counts.ready[.normal] == 1 && counts.oldestReady[.normal] != nil)
    }

    @Test("Given a delayed job requiring capabilities, then its delayed member names its lane, and when due it moves into the lane's stream")
    func delayedMemberKeepsTheLane() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let clock = ManualQueueClock()
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("lanedelay"), clock: clock)
        _ = try await queue.enqueue([Self.job("a", requires: ["processor:sepia", "output-name"].sorted(), notBefore: clock.now().adding(.seconds(10)))])
        let member = try #require(try await client.command(["ZRANGE", queue.keys.delayed, "0", "-1"]).array?.first?.string)
        #expect(member.hasPrefix("normal/output-name,processor:sepia|{"))
        clock.advance(by: .seconds(11))
        #expect(try await queue.reserve(consumer: "blind", max: 1, wait: .zero).isEmpty)
        #expect(try await client.command(["XLEN", queue.keyPrefix + ":jobs:normal/output-name,processor:sepia"]).integer == 1)
        let taken = try await queue.reserve(consumer: "able", max: 1, wait: .zero, offering: ["output-name", "processor:sepia"])
        #expect(taken.first?.tag.rawValue.hasPrefix("normal/output-name,processor:sepia ") == true)
    }

    @Test("Given a lane token, then it parses back to the same lane, and tokens this driver never writes are refused")
    func tokens() {
        let lane = StreamLane(.high, requires: ["a", "b"])
        #expect(lane.token == "high/a,b")
        #expect(StreamLane(token: "high/a,b") == lane)
        #expect(StreamLane(token: "normal") == StreamLane(.normal))
        for bad in ["urgent", "high/", "high/b,a", "high/a,a", "high/a b", "high/a,,b"] { #expect(StreamLane(token: bad) == nil) }
    }
}
