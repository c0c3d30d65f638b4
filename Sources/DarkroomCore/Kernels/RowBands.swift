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

/// A kernel's band closure, shared by the threads of one `concurrentPerform`.
///
/// `@unchecked Sendable` is safe because: `body` is only called while `forEach` waits inside
/// `concurrentPerform`, so it and everything it captures (the source bitmap's bytes, the output
/// buffer, weight tables) are alive for every call; the calls write disjoint output rows (each
/// band its own range) and only read what they share; each band allocates its own scratch rows;
/// and the one mutable state here, `failure`, is behind a `Mutex`.
private final class BandWork: @unchecked Sendable {
    let body: (Range<Int>) throws -> Void
    let failure = Mutex<(any Error)?>(nil)

    init(body: @escaping (Range<Int>) throws -> Void) { self.body = body }

    func run(_ rows: Range<Int>) {
        do {
            try body(rows)
        } catch {
            failure.withLock { if $0 == nil { $0 = error } }
        }
    }
}
