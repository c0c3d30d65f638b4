import DarkroomSystem
import Glibc

/// Fresh directories and file inspection for the file tests, in plain POSIX (this target has no
/// dependencies to borrow from).
enum Scratch {
    struct Failure: Error {}

    static func directory() throws -> String {
        var template = Array("/tmp/darkroom-system-test-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { throw Failure() }
        return String(cString: made)
    }

    static func contents(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        guard case .success(let count) = bytes.withUnsafeMutableBytes({ SystemCall.readFully(descriptor, into: $0) }) else { return nil }
        return Array(bytes[..<count])
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
