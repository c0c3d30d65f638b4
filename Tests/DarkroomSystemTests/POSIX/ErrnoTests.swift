import DarkroomSystem
import Glibc
import Testing

@Suite("Errno")
struct ErrnoTests {
    @Test("a full volume or quota is out of space, nothing else is")
    func outOfSpace() {
        #expect(Errno(ENOSPC).isOutOfSpace)
        #expect(Errno(EDQUOT).isOutOfSpace)
        #expect(!Errno(EIO).isOutOfSpace)
        #expect(!Errno(EACCES).isOutOfSpace)
    }

    @Test(
        "network file system hiccups are transient, permission and path errors are not",
        arguments: [EIO, ESTALE, ETIMEDOUT, EINTR, EAGAIN, ENFILE, EMFILE, ENOMEM, EBUSY])
    func transient(code: Int32) {
        #expect(Errno(code).isTransientIO)
    }

    @Test("permanent errors", arguments: [EACCES, EPERM, EROFS, ENOENT, ENOTDIR, EISDIR, ENOSPC])
    func permanent(code: Int32) {
        #expect(!Errno(code).isTransientIO)
    }

    @Test("the message is strerror's")
    func message() {
        #expect(Errno(ENOENT).message == String(cString: strerror(ENOENT)))
    }
}
