import DarkroomQueue

/// What `darkroom top` folds out of the event stream: throughput per second over the last minute,
/// job durations (start to end) over the same window, and the latest failures. A fold over the
/// events: `add` each one, in stream order.
struct TopModel: Sendable {
    /// Seconds kept in the window.
    static let window = 60
    /// The most start times remembered (jobs started and not yet ended); beyond it the oldest are
    /// forgotten and their durations go unmeasured.
    static let startLimit = 100_000

    struct Failure: Sendable, Hashable {
        var at: Timestamp
        var job: String
        var worker: String?
        var code: String
        var message: String
        var final: Bool
    }

    /// Jobs ended per unix second, the newest `window` seconds.
    private(set) var ended: [Int64: Int] = [:]
    /// Durations (ms) of jobs that ended, with the second they ended in.
    private(set) var durations: [(second: Int64, milliseconds: Double)] = []
    private var starts: [JobID: Timestamp] = [:]
    private var startOrder: [JobID] = []
    /// The newest failures, newest last.
    private(set) var failures: [Failure] = []
    /// Events folded since `top` started.
    private(set) var events = 0

    mutating func add(_ event: JobEvent) {
        events += 1
        let second = event.at.millisecondsSince1970 / 1000
        switch event.type {
        case .started:
            guard let job = event.job else { return }
            if starts.updateValue(event.at, forKey: job) == nil { startOrder.append(job) }
            if startOrder.count > Self.startLimit {
                let dropped = startOrder.prefix(startOrder.count - Self.startLimit)
                for job in dropped { starts[job] = nil }
                startOrder.removeFirst(dropped.count)
            }
        case .succeeded, .failed, .dead, .cancelled:
            if let error = event.error, let job = event.job {
                failures.append(
                    Failure(
                        at: event.at, job: job.rawValue, worker: event.worker, code: error.code, message: error.message,
                        final: event.isTerminal))
                if failures.count > 10 { failures.removeFirst(failures.count - 10) }
            }
            guard event.isTerminal else {
                if let job = event.job { starts[job] = nil }
                return
            }
            ended[second, default: 0] += 1
            if let job = event.job, let started = starts.removeValue(forKey: job) {
                durations.append((second, Double(event.at.millisecondsSince1970 - started.millisecondsSince1970)))
            }
        case .batchEnqueued, .workerOnline, .workerOffline:
            break
        }
    }

    /// Drops what fell out of the window ending at `now`.
    mutating func expire(now: Timestamp) {
        let oldest = now.millisecondsSince1970 / 1000 - Int64(Self.window)
        ended = ended.filter { $0.key > oldest }
        if let keep = durations.firstIndex(where: { $0.second > oldest }) {
            durations.removeFirst(keep)
        } else {
            durations.removeAll()
        }
        startOrder.removeAll { starts[$0] == nil }
    }

    /// Jobs ended in each of the `window` seconds before `now`, oldest first.
    func perSecond(now: Timestamp) -> [Int] {
        let current = now.millisecondsSince1970 / 1000
        return (1...Self.window).reversed().map { ended[current - Int64($0)] ?? 0 }
    }

    /// The `q` quantile (0…1) of the durations in the window; nil when none.
    func quantile(_ q: Double) -> Double? {
        guard !durations.isEmpty else { return nil }
        let sorted = durations.map(\.milliseconds).sorted()
        let rank = min(max(Int((q * Double(sorted.count)).rounded(.up)) - 1, 0), sorted.count - 1)
        return sorted[rank]
    }
}
