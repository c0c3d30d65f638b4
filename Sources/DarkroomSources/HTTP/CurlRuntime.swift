import CCurl
import Synchronization

/// libcurl's process-wide state.
enum CurlRuntime {
    /// `curl_global_init` must run once per process before any handle is made, and older libcurl
    /// builds do not make it thread-safe; a `static let` runs its initialiser exactly once, under
    /// Swift's own once-lock, the first time any thread reads it.
    static let isInitialized: Bool = darkroom_curl_global_init_all() == CURLE_OK

    /// "libcurl/7.88.1 OpenSSL/3.0.x …", for reports.
    static var version: String {
        guard let text = curl_version() else { return "libcurl (unknown version)" }
        return String(cString: text)
    }
}

/// Set from any thread when the fetching task is cancelled; read by libcurl's progress callback on
/// the transfer's thread, which then aborts the transfer.
final class TransferCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    func cancel() { flag.store(true, ordering: .relaxed) }
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
