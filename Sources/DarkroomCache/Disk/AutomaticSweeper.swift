import DarkroomSystem
import Glibc

/// Decides when a writing process sweeps an area itself (see `DiskCache.AutomaticSweep`).
///
/// The check on each store is a few integer operations under a lock; only a due sweep touches
/// the volume, first to read and stamp `<area>/.last-sweep` so that the fleet spaces its sweeps.
final class AutomaticSweeper: Sendable {
    private struct State {
        var written = [Int64](repeating: 0, count: 2)
        var lastSweep: [Int64]
        var running = [false, false]
        var activity = DiskCache.AutomaticSweepActivity()
    }

    private let policy: DiskCache.AutomaticSweep
    private let engine: SweepEngine
    private let state: Locked<State>

    init(policy: DiskCache.AutomaticSweep, engine: SweepEngine) {
        self.policy = policy
        self.engine = engine
        let now = POSIX.now()
        state = Locked(State(lastSweep: [now, now]))
    }

    private static func index(_ area: CacheArea) -> Int { area == .originals ? 0 : 1 }

    /// Bytes to write into `area` before its writer sweeps: a fraction of the limit, at least 64 KiB.
    func threshold(for area: CacheArea) -> Int64 {
        max(64 << 10, Int64(Double(engine.configuration.limitBytes(for: area)) * policy.writtenFraction))
    }

    /// Notes `bytes` written into `area`, and sweeps it when that is due.
    func didWrite(_ bytes: Int, into area: CacheArea, now: Int64) {
        let i = Self.index(area)
        let threshold = threshold(for: area)
        let interval = policy.interval.saturatingNanoseconds
        let due = state.withLock { state -> Bool in
            state.written[i] += Int64(bytes)
            guard !state.running[i] else { return false }
            guard state.written[i] >= threshold || now &- state.lastSweep[i] >= interval else { return false }
            state.running[i] = true
            state.written[i] = 0
            state.lastSweep[i] = now
            return true
        }
        guard due else { return }
        guard claimSweep(of: area, now: now) else {
            state.withLock { $0.running[i] = false }
            return
        }
        let engine = self.engine
        let finish: @Sendable () -> Void = { [self] in
            // Errors are not the writer's problem: the next sweep (or `darkroom cache prune`) retries.
            let report = try? engine.sweep([area], now: POSIX.now())
            state.withLock { state in
                state.running[i] = false
                state.activity.sweeps += 1
                if let report {
                    state.activity.removedEntries += report.removedEntries
                    state.activity.removedBytes += report.removedBytes
                } else {
                    state.activity.failedSweeps += 1
                }
            }
        }
        if !policy.inBackground || !DetachedThread.start(finish) {
            finish()
        }
    }

    /// What this process's automatic sweeps have done so far.
    var activity: DiskCache.AutomaticSweepActivity { state.withLock { $0.activity } }

    /// True when no process began sweeping `area` within `minimumSpacing`; then stamps the marker
    /// so others skip. Two processes may both win a race here: harmless, sweeps are safe together.
    private func claimSweep(of area: CacheArea, now: Int64) -> Bool {
        let marker = engine.layout.sweepMarker(area)
        if case .success(let info) = POSIX.status(marker),
            now &- POSIX.modificationTime(info) < policy.minimumSpacing.saturatingNanoseconds
        {
            return false
        }
        engine.layout.stampSweepMarker(area)
        return true
    }
}
