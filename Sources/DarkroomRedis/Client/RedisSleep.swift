import DarkroomSystem
import Glibc

/// A thread sleep for backoff between connect attempts. Connections are used from blocking
/// threads (a `BlockingWorkPool` or the caller's own), never from the cooperative pool, so
/// sleeping the thread is what is wanted here.
enum RedisSleep {
    static func sleep(_ duration: Duration) {
        guard duration > .zero else { return }
        var request = duration.asTimespec
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
