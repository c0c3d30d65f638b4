import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

/// `darkroom-example-client` (Examples/EnqueueAndWait), the program docs/client-library.md shows,
/// run as a real process against a real `darkroom worker` and Redis: what a program built on
/// `DarkroomClient` and `DarkroomRedis` alone can do.
@Suite("The example client program, against a real worker and Redis", .serialized, .realTime)
struct ExampleClientRealTimeTests {
    @Test("It enqueues, waits and exits 0 when every job succeeded; a bad chain exits 2 and enqueues nothing")
    func enqueueAndWait() async throws {
        let fleet = try FleetKit()
        let first = try fleet.image("a.png", seed: 1)
        let second = try fleet.image("b.png", seed: 2)
        let worker = try fleet.worker(name: "w1")
        let client = try DarkroomBinary.path(named: "darkroom-example-client")

        let done = try await fleet.run(["--timeout", "60", "examples", "downsample(32x32)", first, second], executable: client)
        #expect(done.status == 0, "\(done.output)\(done.error)")
        #expect(done.output.contains("enqueued 2 of 2 jobs into examples with downsample(32x32"), "\(done.output)")
        #expect(done.output.contains("examples: 2 succeeded, 0 failed, 0 dead, 0 cancelled"), "\(done.output)")
        // The jobs the client enqueued are the workers' usual jobs: each ended once, saying what it was.
        let ended = FleetKit.terminalEvents(try await fleet.events().filter { $0.batch == "examples" })
        #expect(ended.count == 2)
        for events in ended.values {
            #expect(events.map(\.type) == [.succeeded])
            #expect(events.first?.chain?.hasPrefix("downsample(32x32") == true)
            #expect([first, second].contains(events.first?.source ?? ""))
        }

        // Checked here, as a worker would check it, before anything is sent.
        let refused = try await fleet.run(["other", "blur(-3)", first], executable: client)
        #expect(refused.status == 2, "\(refused.output)\(refused.error)")
        #expect(refused.error.contains("CHAIN") && refused.error.contains("nothing was enqueued"), "\(refused.error)")
        #expect(try await fleet.events().allSatisfy { $0.batch != "other" })

        worker.kill(SIGTERM)
        #expect(await worker.waitForExit(timeout: .seconds(30)) == 0)
    }
}
