import DarkroomSystem

/// Lets tests (and diagnostics) observe every pixel-buffer allocation made in a task.
///
/// Decoders must refuse a hostile header *before* they allocate anything for its pixels; tests
/// prove it by running the decode inside `PixelMemory.$observer.withValue(...)` and checking that
/// nothing was reported. Any code that allocates a pixel-sized buffer outside `Bitmap` (a 16-bit
/// decode buffer, a CMYK scanline buffer for lcms2) calls `reportAllocation` too.
public enum PixelMemory {
    /// Receives the byte count of each pixel allocation made while it is set.
    public final class Observer: Sendable {
        private let counter = LockedCounter()
        public init() {}
        /// How many pixel buffers were allocated.
        public var allocationCount: Int { counter.value.count }
        /// How many bytes those buffers hold in total.
        public var allocatedBytes: Int { counter.value.bytes }
        func record(_ bytes: Int) { counter.add(bytes) }
    }

    /// The observer for the current task, if any.
    @TaskLocal public static var observer: Observer?

    /// Reports a pixel buffer of `bytes` bytes to the current task's observer.
    @inline(__always)
    public static func reportAllocation(bytes: Int) {
        observer?.record(bytes)
    }
}

/// A tiny mutex-protected pair of counters.
final class LockedCounter: Sendable {
    private let state = Locked<(count: Int, bytes: Int)>((0, 0))
    var value: (count: Int, bytes: Int) { state.withLock { $0 } }
    func add(_ bytes: Int) {
        state.withLock {
            $0.count += 1
            $0.bytes += bytes
        }
    }
}
