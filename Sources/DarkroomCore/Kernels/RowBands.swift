import DarkroomSystem
import Dispatch
import Synchronization

/// Splits a kernel's output rows into bands that run at once on idle cores, so one large image
/// uses every core when it is the only one left.
///
/// Never oversubscribed: the pipeline counts the images whose pixel work is running
/// (`countingImage`), and a kernel splits into at most one band per core no other image uses. A
/// batch with an image per core therefore runs every kernel in one band, as before, and only the
/// last images of a batch (or a lone large one) spread out. Small work stays in one band: handing
/// a band to another thread costs tens of microseconds, more than a thumbnail's rows.
///
/// Every kernel that splits computes each output row exactly as it does unsplit (rows never
/// depend on other output rows), so the result is the same bytes for any band count;
/// `RowBandsTests` holds every split kernel to that.
public enum RowBands {
    private static let imagesInWork = Atomic<Int>(0)

    /// For tests: a fixed band count (1 = never split), whatever the cores and the size.
    @TaskLocal public static var forcedCount: Int?

    /// Below this many output pixels a kernel does not split.
    static let minimumPixels = 256 * 1024
    /// Fewest rows per band.
    static let minimumRows = 8

    /// Runs `body`, one image's pixel work, counted as in progress.
    public static func countingImage<T>(_ body: () throws -> T) rethrows -> T {
        imagesInWork.add(1, ordering: .relaxed)
        defer { imagesInWork.subtract(1, ordering: .relaxed) }
        return try body()
    }

    /// The cores no other image's pixel work uses now (at least 1): the threads a decoder that
    /// splits its own work (a plugin coder's tiles) may use for the image in hand.
    public static var idleCores: Int {
        if let forcedCount { return max(1, forcedCount) }
        return max(1, Cores.count - max(imagesInWork.load(ordering: .relaxed) - 1, 0))
    }

    /// How many bands `rows` rows of `width` pixels split into now.
    static func count(rows: Int, width: Int) -> Int {
        let most = max(1, rows / minimumRows)
        if let forcedCount { return max(1, min(forcedCount, rows)) }
        guard rows * width >= minimumPixels else { return 1 }
        // This image is one of those in work (or none are counted, outside the pipeline).
        let others = max(imagesInWork.load(ordering: .relaxed) - 1, 0)
        let idle = Cores.count - others
        return max(1, min(idle, most))
    }

    /// Calls `body` with consecutive ranges that together cover `0..<rows`, at once on up to
    /// `count(rows:width:)` threads, and returns when all are done. The first error thrown is
    /// rethrown (the other bands still finish: their rows are simply not used).
    static func forEach(rows: Int, width: Int, _ body: (Range<Int>) throws -> Void) throws {
        let bands = count(rows: rows, width: width)
        guard bands > 1 else {
            try body(0..<rows)
            return
        }
        try withoutActuallyEscaping(body) { body in
            let work = BandWork(body: body)
            // `concurrentPerform` runs the bands on the calling thread and libdispatch's workers,
            // and returns when every band has.
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                work.run((rows * band / bands)..<(rows * (band + 1) / bands))
            }
            if let error = work.failure.withLock({ $0 }) { throw error }
        }
    }
}

extension RowBands {
    /// The threads a codec library's own threading may use for one `width`-wide image of `rows`
    /// rows (libavif's `maxThreads`): as many as a kernel over it would split into now, so a
    /// batch with an image per core stays single-threaded and a lone large image uses every
    /// idle core.
    public static func threadBudget(rows: Int, width: Int) -> Int {
        count(rows: rows, width: width)
    }

    /// `forEach` for a body that cannot fail.
    public static func forEachNonThrowing(rows: Int, width: Int, _ body: (Range<Int>) -> Void) {
        // `forEach` only rethrows what a band throws, and these bands throw nothing.
        try? forEach(rows: rows, width: width, body)
    }
}

extension RowBands {
    /// How many frames of an animation to take into work at once: two per core, so `map` keeps
    /// every idle core busy while the frames' sizes differ, and memory stays bounded to a few
    /// frames per core whatever the animation's length.
    public static var animationGroupSize: Int { max(2, 2 * Cores.count) }

    /// `transform` applied to each of `count` items, at once on the cores no other image uses
    /// (the frames of one animation: each frame's processing is independent). Results in order.
    /// It throws what `transform` throws, so a transform that cannot fail makes a call that cannot.
    public static func map<T: Sendable, Failure: Error>(
        count: Int, _ transform: (Int) throws(Failure) -> T
    ) throws(Failure) -> [T] {
        guard count > 0 else { return [] }
        let results = ResultSlots<T>(count: count)
        do {
            // One band per item, at most as many at once as `forEach` allows for `count` rows.
            try forEachItem(count: count) { index in results.set(index, try transform(index)) }
        } catch {
            // `forEachItem` throws only what a band threw, and the bands throw only `transform`'s errors.
            throw error as! Failure
        }
        return results.values()
    }

    private static func forEachItem(count: Int, _ body: (Int) throws -> Void) throws {
        let others = max(imagesInWork.load(ordering: .relaxed) - 1, 0)
        let threads = max(1, min(forcedCount ?? (Cores.count - others), count))
        guard threads > 1 else {
            for index in 0..<count { try body(index) }
            return
        }
        let items = { (range: Range<Int>) throws in for index in range { try body(index) } }
        try withoutActuallyEscaping(items) { items in
            let work = BandWork(body: items)
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                work.run((count * thread / threads)..<(count * (thread + 1) / threads))
            }
            if let error = work.failure.withLock({ $0 }) { throw error }
        }
    }
}

/// The results of `RowBands.map`, one slot per item.
///
/// `@unchecked Sendable` is safe because each slot is written by exactly one thread (the one
/// given its index) before `concurrentPerform` returns, and read only after it has.
private final class ResultSlots<T>: @unchecked Sendable {
    // A fixed buffer, not an array: writing through an array from several threads would touch
    // its shared buffer reference; a pointer's slots are independent memory.
    private let slots: UnsafeMutablePointer<T?>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    func set(_ index: Int, _ value: T) { slots[index] = value }

    func values() -> [T] { (0..<count).map { slots[$0]! } }
}

/// A kernel's band closure, shared by the threads of one `concurrentPerform`.
///
/// `@unchecked Sendable` is safe because: `body` is only called while `forEach` waits inside
/// `concurrentPerform`, so it and everything it captures (the source bitmap's bytes, the output
/// buffer, weight tables) are alive for every call; the calls write disjoint output rows (each
/// band its own range) and only read what they share; each band allocates its own scratch rows;
/// and the one mutable state here, `failure`, is behind a `Locked`.
private final class BandWork: @unchecked Sendable {
    let body: (Range<Int>) throws -> Void
    let failure = Locked<(any Error)?>(nil)

    init(body: @escaping (Range<Int>) throws -> Void) { self.body = body }

    func run(_ rows: Range<Int>) {
        do {
            try body(rows)
        } catch {
            failure.withLock { if $0 == nil { $0 = error } }
        }
    }
}
