import CHiredis

/// A bound on the array replies hiredis will build, installed on every reader Darkroom uses.
///
/// hiredis 0.14 (Debian 12's `libhiredis0.14`) allocates an array reply's element list as soon as
/// it reads the header, before any element arrives: `*277777777\r\n` from a broken or hostile
/// server makes it `calloc` 2.2 GB (found by the `reply` fuzz target, docs/fuzzing.md; hiredis
/// 1.0 added a `maxelements` setting for this). Darkroom's own commands never get near a million
/// elements in one array (reads are paged with COUNT, pipelines answer command by command), so
/// an array header over the limit fails the read instead: hiredis reports it as out of memory,
/// and the connection is dropped like after any protocol error.
public enum RedisReplyLimits {
    /// Most elements an array reply may declare (8 MB of element pointers).
    public static let maximumArrayElements: Int32 = 1 << 20

    /// Makes `reader` build its replies through the bounded functions.
    @_spi(Fuzzing) public static func apply(to reader: UnsafeMutablePointer<redisReader>) {
        guard reader.pointee.fn != nil, let limitedFunctions else { return }
        reader.pointee.fn = limitedFunctions
    }
}

// Both globals below are written once, by Swift's thread-safe lazy initialisation of globals, and
// only read afterwards: hiredis reads the function table and never writes through it. That is
// why `nonisolated(unsafe)` is sound for them.

/// hiredis' own reply-object functions, read from a reader of its own; nil only when hiredis
/// could not allocate one (the reader is then left as it is).
nonisolated(unsafe) private let hiredisFunctions: redisReplyObjectFunctions? = {
    guard let reader = redisReaderCreate() else { return nil }
    defer { redisReaderFree(reader) }
    return reader.pointee.fn?.pointee
}()

/// hiredis' functions with `createArray` refusing arrays over the limit.
nonisolated(unsafe) private let limitedFunctions: UnsafeMutablePointer<redisReplyObjectFunctions>? = {
    guard var functions = hiredisFunctions else { return nil }
    functions.createArray = { task, elements in
        guard elements <= RedisReplyLimits.maximumArrayElements else { return nil }
        return hiredisFunctions?.createArray?(task, elements)
    }
    let table = UnsafeMutablePointer<redisReplyObjectFunctions>.allocate(capacity: 1)
    table.initialize(to: functions)
    return table
}()
