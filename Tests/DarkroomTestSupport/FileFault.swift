import DarkroomSystem
import Glibc

/// The faults every writer of files is tested against (`@Test(arguments: FileFault.allCases)`),
/// each a script for a fresh `FaultInjectingFileSystemCalls`, armed just before the write under
/// test: the faults fire on that write's own calls.
public enum FileFault: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The next `write` fails with `ENOSPC`: the volume is full.
    case diskFullOnWrite
    /// The next `write` writes 7 bytes, the one after fails with `ENOSPC`: part of the data is
    /// in the file when the error comes.
    case shortWriteThenDiskFull
    /// The next `fsync` fails with `EIO`.
    case ioErrorOnSync
    /// The next `close` fails with `EIO` (as NFS reports a failed write-back).
    case ioErrorOnClose
    /// The next `open`, `write`, `fsync`, `rename`, `link` and `flock` are each interrupted by a
    /// signal (`EINTR`) once: retried, nothing fails.
    case interrupted
    /// The next `write` writes 1 byte, the one after 3: completed, nothing fails.
    case shortWrites

    public var description: String { rawValue }

    /// Scripts the fault on `fake`.
    public func arm(_ fake: FaultInjectingFileSystemCalls) {
        switch self {
        case .diskFullOnWrite:
            fake.inject(.fail(ENOSPC), on: .write)
        case .shortWriteThenDiskFull:
            fake.inject(.shortWrite(7), on: .write)
            fake.inject(.fail(ENOSPC), on: .write, nth: 2)
        case .ioErrorOnSync:
            fake.inject(.fail(EIO), on: .fsync)
        case .ioErrorOnClose:
            fake.inject(.fail(EIO), on: .close)
        case .interrupted:
            for call in [FaultInjectingFileSystemCalls.Call.open, .write, .fsync, .rename, .link, .flock] {
                fake.inject(.interrupt, on: call)
            }
        case .shortWrites:
            fake.inject(.shortWrite(1), on: .write)
            fake.inject(.shortWrite(3), on: .write, nth: 2)
        }
    }

    /// The errno the write must fail with, or nil when it must succeed (the fault is one the
    /// retrying layer absorbs).
    public var expectedErrno: Int32? {
        switch self {
        case .diskFullOnWrite, .shortWriteThenDiskFull: return ENOSPC
        case .ioErrorOnSync, .ioErrorOnClose: return EIO
        case .interrupted, .shortWrites: return nil
        }
    }
}
