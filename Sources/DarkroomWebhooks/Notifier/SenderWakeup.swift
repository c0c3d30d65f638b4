import DarkroomSystem

/// Wakes the notifier's idle sender as soon as its ingest adds a page's deliveries (once per
/// page: a wake per delivery cost a task cancellation each at 1,000 a second), instead of leaving
/// the delivery until the sender's next idle poll (`WebhookNotifier.Configuration.idlePoll`,
/// 100 ms): measured at 1,000 cache-hit jobs a second, that poll was most of a delivery's latency
/// (docs/benchmarks.md, "HTTP API").
///
/// The sender waits in `sleep(for:)`; `wake()` cuts that sleep short, or, when the sender is not
/// sleeping (it is claiming, and the claim may have missed the new delivery), marks the next
/// `sleep(for:)` to return at once. One sender sleeps at a time.
final class SenderWakeup: Sendable {
    private struct State {
        var sleeper: Task<Void, Never>?
        var woken = false
    }

    private let state = Locked(State())

    /// Ends the current sleep, or the next one as soon as it begins.
    func wake() {
        let sleeper = state.withLock { state -> Task<Void, Never>? in
            state.woken = true
            return state.sleeper
        }
        sleeper?.cancel()
    }

    /// Sleeps up to `duration`: less when `wake()` is called meanwhile, not at all when it was
    /// called since the last sleep ended, or when the calling task is cancelled.
    func sleep(for duration: Duration) async {
        let timer = state.withLock { state -> Task<Void, Never>? in
            guard !state.woken else {
                state.woken = false
                return nil
            }
            let timer = Task<Void, Never> { _ = try? await Task.sleep(for: duration) }
            state.sleeper = timer
            return timer
        }
        guard let timer else { return }
        await withTaskCancellationHandler {
            await timer.value
        } onCancel: {
            timer.cancel()
        }
        // A wake that came during this sleep is spent: the sender claims next either way.
        state.withLock { state in
            state.sleeper = nil
            state.woken = false
        }
    }
}
