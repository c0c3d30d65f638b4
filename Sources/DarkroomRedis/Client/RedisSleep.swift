import DarkroomSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread sleep for backoff between connect attempts. Connections are used from blocking
/// threads (a `BlockingWorkPool` or the caller's own), never from the cooperative pool, so
/// sleeping the thread is what is wanted here.
enum RedisSleep {
    static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
