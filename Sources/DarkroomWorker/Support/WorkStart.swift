import Synchronization

/// One job's passage from waiting to working, which the pipeline (`ImageRequest.onWorkStart`)
/// and the job's own end can both report: only the first report counts, so the job leaves the
/// worker's count of jobs not yet started exactly once.
final class WorkStart: Sendable {
    // Atomic rather than the project's lock: one flag, exchanged once, never waited on.
    private let reported = Atomic<Bool>(false)

    /// True for the first report only.
    func report() -> Bool {
        !reported.exchange(true, ordering: .acquiringAndReleasing)
    }
}
