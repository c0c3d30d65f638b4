import DarkroomSystem
import Glibc

/// Reads a Redis password from a file (a Kubernetes/Docker secret, mode 0600), so it never has to
/// be on a command line where `ps` shows it.
enum RedisPasswordFile {
    /// The first line of the file, without its line ending. Files over 64 KB are refused.
    static func read(_ path: String) throws(RedisError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw .invalidURL("cannot read the Redis password file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                SystemCall.retryingInterrupts { systemRead(fd, buffer.baseAddress, buffer.count) }
            }
            if count < 0 {
                throw .invalidURL("cannot read the Redis password file \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > 65_536 { throw .invalidURL("the Redis password file \(path) is larger than 64 KB") }
        }
        if let newline = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) { bytes.removeSubrange(newline...) }
        guard !bytes.isEmpty else { throw .invalidURL("the Redis password file \(path) is empty") }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private let systemRead = Glibc.read
