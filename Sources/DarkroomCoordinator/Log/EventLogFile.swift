import DarkroomSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open log file: appends with fsync, and the reads and cuts recovery needs at its end.
final class EventLogFile {
    let path: String
    private(set) var descriptor: Int32
    /// The file's length, kept as it is appended to or cut.
    private(set) var size: Int64

    /// Opens `path` for appending (creating it when `create`), or read-only.
    init(path: String, writable: Bool, create: Bool = true) throws(EventLogError) {
        self.path = path
        let flags = writable ? O_RDWR | O_APPEND | O_CLOEXEC | (create ? O_CREAT : 0) : O_RDONLY | O_CLOEXEC
        let descriptor = SystemCall.retryingInterrupts { open(path, flags, 0o644) }
        guard descriptor >= 0 else { throw .io("cannot open \(path)", .current) }
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else {
            let failure = Errno.current
            close(descriptor)
            throw .io("cannot read \(path)", failure)
        }
        self.descriptor = descriptor
        self.size = Int64(end)
    }

    deinit { closeFile() }

    func closeFile() {
        guard descriptor >= 0 else { return }
        _ = close(descriptor)
        descriptor = -1
    }

    /// Appends `bytes` and flushes them to the disk before returning.
    func append(_ bytes: [UInt8]) throws(EventLogError) {
        let failure = bytes.withUnsafeBytes { SystemCall.writeAll(descriptor, $0) }
        if let failure { throw .io("cannot write \(path)", failure) }
        guard SystemCall.retryingInterrupts({ fsync(descriptor) }) == 0 else { throw .io("cannot sync \(path)", .current) }
        size += Int64(bytes.count)
    }

    /// Cuts the file to `length` bytes and flushes that.
    func truncate(to length: Int64) throws(EventLogError) {
        guard SystemCall.retryingInterrupts({ ftruncate(descriptor, off_t(length)) }) == 0,
            SystemCall.retryingInterrupts({ fsync(descriptor) }) == 0
        else { throw .io("cannot cut \(path) to \(length) bytes", .current) }
        size = length
    }

    /// `count` bytes at `offset`.
    func read(at offset: Int64, count: Int) throws(EventLogError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                SystemCall.retryingInterrupts { pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            }
            guard got > 0 else { throw .io("cannot read \(path)", got < 0 ? .current : Errno(EIO)) }
            done += got
        }
        return bytes
    }

    /// The offset of the last `\n` before `end`, or nil when there is none; reads backwards in
    /// blocks, so a long file costs only its tail.
    func lastNewline(before end: Int64) throws(EventLogError) -> Int64? {
        var blockEnd = end
        while blockEnd > 0 {
            let blockStart = max(0, blockEnd - 65_536)
            let block = try read(at: blockStart, count: Int(blockEnd - blockStart))
            if let index = block.lastIndex(of: UInt8(ascii: "\n")) { return blockStart + Int64(index) }
            blockEnd = blockStart
        }
        return nil
    }

    /// The last complete line (without its `\n`) and where it starts, or nil for an empty file.
    /// The file must end with `\n`.
    func lastLine() throws(EventLogError) -> (start: Int64, bytes: [UInt8])? {
        guard size > 0 else { return nil }
        let start = try lastNewline(before: size - 1).map { $0 + 1 } ?? 0
        return (start, try read(at: start, count: Int(size - 1 - start)))
    }

    /// True when the file is empty or its last byte is `\n`.
    func endsWithNewline() throws(EventLogError) -> Bool {
        guard size > 0 else { return true }
        return try read(at: size - 1, count: 1) == [UInt8(ascii: "\n")]
    }
}
