import Glibc

/// The one place that retries system calls a signal interrupted.
///
/// A signal delivered to the thread during a blocking `read`, `write` or `open` makes the call
/// fail with `EINTR` although nothing went wrong; the right answer is always to call again.
public enum SystemCall {
    /// Calls `body` until it returns anything other than -1 with `errno == EINTR`, and returns
    /// that result (`errno` still holds the failure when it is -1).
    @inlinable
    public static func retryingInterrupts<Result: BinaryInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result != -1 || errno != EINTR { return result }
        }
    }

    /// Writes all of `bytes` to `descriptor`, retrying short writes and `EINTR`. Returns nil when
    /// everything was written, else the errno of the failed write (a write of zero bytes, which
    /// would otherwise loop for ever, counts as `EIO`).
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Errno? {
        guard var pointer = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            let written = retryingInterrupts { write(descriptor, pointer, remaining) }
            if written < 0 { return .current }
            if written == 0 { return Errno(EIO) }
            pointer += written
            remaining -= written
        }
        return nil
    }

    /// Reads from `descriptor` into `buffer` until it is full or the file ends, retrying `EINTR`.
    /// Returns the byte count read, or the errno of the failed read.
    public static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        guard let base = buffer.baseAddress else { return .success(0) }
        var total = 0
        while total < buffer.count {
            let count = retryingInterrupts { read(descriptor, base + total, buffer.count - total) }
            if count < 0 { return .failure(.current) }
            if count == 0 { break }
            total += count
        }
        return .success(total)
    }
}
