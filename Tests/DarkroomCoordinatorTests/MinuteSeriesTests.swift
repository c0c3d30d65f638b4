import DarkroomFleetStatus
import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Testing

/// The coordinator's per-minute series (the dashboard chart's history): what the projection
/// script writes per minute, and how a minute's hash reads back.
@Suite("The coordinator's per-minute series")
struct MinuteSeriesTests {
    @Test("Given durations, then the histogram's quantiles are the buckets' geometric middles, as the batches' p50 and p95")
    func histogramQuantiles() throws {
        #expect(LatencyHistogram.bucket(ofMilliseconds: 0.4) == 0)
        #expect(LatencyHistogram.bucket(ofMilliseconds: 1) == 1)
        let hundred = LatencyHistogram.bucket(ofMilliseconds: 100)
        let middle = try #require(LatencyHistogram.quantile(0.5, of: [hundred: 3]))
        #expect(abs(middle - 100) / 100 < 0.05, "within the bucket's 5 % of 100 ms: \(middle)")
        // 19 fast jobs and one slow: p50 is fast, p95 (rank 19) still fast, p99 (rank 20) the slow one.
        let buckets = [LatencyHistogram.bucket(ofMilliseconds: 10): 19, LatencyHistogram.bucket(ofMilliseconds: 5000): 1]
        #expect(try #require(LatencyHistogram.quantile(0.95, of: buckets)) < 11)
        #expect(try #require(LatencyHistogram.quantile(0.99, of: buckets)) > 4500)
        #expect(LatencyHistogram.quantile(0.5, of: [0: 2]) == 0.5)
        #expect(LatencyHistogram.quantile(0.5, of: [:]) == nil)
    }

    @Test("Given a minute's stored fields, then it reads as jobs ended, jobs timed and their percentiles")
    func minuteFromFields() {
        let bucket = LatencyHistogram.bucket(ofMilliseconds: 40)
        let minute = FleetMinute(
            unixMinute: 29_833_333, fields: ["n": 5, "b\(bucket)": 4, "other": 9, "f:decode.corrupt": 2, "r:source.timeout": 3])
        #expect(minute.at == Timestamp(millisecondsSince1970: 29_833_333 * 60_000))
        #expect((minute.ended, minute.timed) == (5, 4))
        #expect(minute.p95Ms == LatencyHistogram.quantile(0.95, of: [bucket: 4]))
        #expect(minute.failures == ["decode.corrupt": 2])
        #expect(minute.retries == ["source.timeout": 3])
        let empty = FleetMinute(unixMinute: 1, fields: [:])
        #expect((empty.ended, empty.timed, empty.p50Ms, empty.p95Ms) == (0, 0, nil, nil))
    }

    @Test("Given jobs ended and folded by a coordinator, then the series counts every ended job once and times the started ones")
    func seriesFromProjections() async throws {
        let fleet = try ProjectionTests.Fleet()
        defer { fleet.close() }
        _ = try await fleet.queue.enqueue((1...7).map { QueueTestKit.job("m\($0)", batch: "b") })
        // m1–m3 succeed, m4 fails for good, m5 is dead-lettered; m6 is cancelled unstarted.
        try await QueueTestKit.finish(fleet.queue, count: 5, consumer: "w", outcome: ProjectionTests.outcome)
        #expect(try await fleet.queue.cancel(jobs: [JobID(rawValue: "m6")!]) == 1)
        // m7 fails and will be retried: a failure, not an end.
        let retried = try #require(try await fleet.queue.reserve(consumer: "w", max: 1, wait: .zero).first)
        #expect(retried.job.id.rawValue == "m7")
        try await fleet.queue.publish([.started(job: retried.job.id, batch: "b", worker: "w", attempt: retried.attempt)])
        _ = try await fleet.queue.retry(retried, after: .seconds(600), error: JobError(code: "source.timeout", message: "slow"))
        try await fleet.catchUp(fleet.coordinator("c1"))

        // The jobs ended within the last few minutes of the queue's clock; a wide window holds them all.
        let series = try await fleet.store.minuteSeries(count: 5, endingAt: Timestamp.now())
        #expect(series.count == 5)
        #expect(zip(series, series.dropFirst()).allSatisfy { $0.at.millisecondsSince1970 + 60_000 == $1.at.millisecondsSince1970 })
        #expect(series.map(\.ended).reduce(0, +) == 6, "a retried failure is not an end")
        #expect(series.map(\.timed).reduce(0, +) == 5)
        #expect(series.contains { $0.p95Ms != nil })
        // Failures by code, final apart from retried: m4 failed for good, m5 was dead-lettered
        // (by the test, code queue.test).
        let failures = series.reduce(into: [String: Int]()) { $0.merge($1.failures, uniquingKeysWith: +) }
        #expect(failures == ["image.corrupt": 1, "queue.test": 1])
        #expect(series.reduce(into: [String: Int]()) { $0.merge($1.retries, uniquingKeysWith: +) } == ["source.timeout": 1])
        // Bounded: asking for more than two hours answers two hours.
        #expect(try await fleet.store.minuteSeries(count: 10_000, endingAt: Timestamp.now()).count == 120)
    }
}
