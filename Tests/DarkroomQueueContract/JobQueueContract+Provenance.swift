import DarkroomQueue
import Testing

/// The contract of terminal events naming what their job was.
extension JobQueueContract {
    /// Every kind of terminal event — acknowledged alone or in a group, failed, dead after a retry,
    /// cancelled — carries the job's source redacted and its chain as queued; `started` and a
    /// retrying `failed` carry neither.
    public static func terminalEventsSayWhatTheJobWas(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            let now = harness.now()
            // `cancelled` waits in the delayed set, so no reserve takes it before the cancel.
            func job(_ name: String, _ source: String) -> Job {
                Job(
                    id: Kit.id(name), batch: "p", source: source, chain: "blur(\(name.count))", format: "png", enqueuedAt: now,
                    notBefore: name == "cancelled" ? now.adding(unit * 100) : nil)
            }
            let sources = [
                "one": "https://u:pw@example.com/one.jpg?X-Amz-Signature=abc&w=1",
                "group": "/srv/in/group.png",
                "fails": "http://[::1]:8080/fails.png?token=t",
                "dies": "https://example.com/dies.gif?sig=s",
                "cancelled": "data:image/png;base64,iVBORw0KGgo=",
            ]
            let order = ["one", "group", "fails", "dies", "cancelled"]
            _ = try await driver.enqueue(order.map { job($0, sources[$0] ?? "") })
            let deliveries = try await driver.reserve(consumer: "w1", max: 4, wait: .zero)
            let byName = Dictionary(uniqueKeysWithValues: deliveries.map { ($0.job.id.rawValue, $0) })
            let error = JobError(code: "decode.corrupt", message: "bad")
            #expect(try await driver.acknowledge(try #require(byName["one"]), outcome: .succeeded(Kit.result)))
            #expect(try await driver.acknowledge([(try #require(byName["group"]), .succeeded(Kit.result))]) == [true])
            #expect(try await driver.acknowledge(try #require(byName["fails"]), outcome: .failed(error)))
            #expect(try await driver.retry(try #require(byName["dies"]), after: .zero, error: error) != .notPending)
            let again = try #require(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).first)
            #expect(again.job.id == Kit.id("dies"))
            #expect(try await driver.deadLetter(again, error: error))
            #expect(try await driver.cancel(batch: "p") == 1)

            let events = try await Kit.allEvents(driver).filter { $0.batch == "p" && $0.type != .batchEnqueued }
            let terminal = events.filter(\.isTerminal)
            #expect(terminal.count == 5)
            for event in terminal {
                let name = try #require(event.job?.rawValue)
                #expect(event.source == SourceRedaction.redact(sources[name] ?? ""), "\(event.type) of \(name)")
                #expect(event.chain == "blur(\(name.count))", "\(event.type) of \(name)")
            }
            #expect(Set(terminal.compactMap(\.source)).allSatisfy { !$0.contains("abc") && !$0.contains("pw") && !$0.contains("=t") })
            #expect(terminal.contains { $0.source == "data:image/png;base64,… (34 bytes)" })
            let retrying = events.filter { $0.type == .failed && $0.willRetry == true }
            #expect(retrying.count == 1)
            #expect(retrying.allSatisfy { $0.source == nil && $0.chain == nil })
        }
    }
}
