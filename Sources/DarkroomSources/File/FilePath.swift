import DarkroomSystem
import Glibc

/// A file system path as raw bytes (Linux paths are bytes, not necessarily UTF-8), without the
/// terminating NUL.
struct FilePath: Hashable, Sendable {
    var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }
    init(_ text: String) { bytes = Array(text.utf8) }

    /// For messages: invalid UTF-8 shows as U+FFFD.
    var display: String { String(decoding: bytes, as: UTF8.self) }

    var isAbsolute: Bool { bytes.first == UInt8(ascii: "/") }

    /// The path with `/`-separated non-empty components, `.` dropped and `..` applied lexically
    /// (no file system access), made absolute against the working directory.
    var lexicallyNormalized: FilePath {
        var absolute = bytes
        if !isAbsolute, let cwd = FilePath.currentDirectory {
            absolute = cwd.bytes + [UInt8(ascii: "/")] + bytes
        }
        var components: [ArraySlice<UInt8>] = []
        for component in absolute.split(separator: UInt8(ascii: "/")) {
            if component.elementsEqual([UInt8(ascii: ".")]) { continue }
            if component.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                if !components.isEmpty { components.removeLast() }
                continue
            }
            components.append(component)
        }
        var result: [UInt8] = []
        for component in components {
            result.append(UInt8(ascii: "/"))
            result.append(contentsOf: component)
        }
        return FilePath(result.isEmpty ? [UInt8(ascii: "/")] : result)
    }

    /// True when `self` is `root` or lies below it, compared byte for byte at a component
    /// boundary: `/data/img` contains `/data/img/a.jpg` but not `/data/imgevil/a.jpg`. (Byte
    /// comparison matters: Swift's `String ==` treats canonically equivalent Unicode as equal,
    /// but the file system does not.)
    func isWithin(_ root: FilePath) -> Bool {
        guard bytes.starts(with: root.bytes) else { return false }
        if bytes.count == root.bytes.count { return true }
        if root.bytes.last == UInt8(ascii: "/") { return true }  // the root is `/`
        return bytes[root.bytes.count] == UInt8(ascii: "/")
    }

    /// The components of `self` below `root` (which must contain it).
    func components(below root: FilePath) -> [[UInt8]] {
        bytes[root.bytes.count...].split(separator: UInt8(ascii: "/")).map(Array.init)
    }

    /// Calls `body` with a NUL-terminated copy of the path.
    func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var terminated = bytes
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// `realpath(3)`: absolute, symbolic links followed, `.` and `..` resolved. Returns the errno
    /// on failure.
    func resolved() -> Result<FilePath, Errno> {
        let pointer: UnsafeMutablePointer<CChar>? = withCString { realpath($0, nil) }
        guard let pointer else { return .failure(Errno(errno)) }
        defer { free(pointer) }
        let length = strlen(pointer)
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        return .success(FilePath(Array(bytes)))
    }

    /// The working directory, or nil if it cannot be read.
    static var currentDirectory: FilePath? {
        guard let pointer = getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return FilePath(Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))))
    }

    /// A `file://` URL for the path, percent-encoding every byte that is not printable ASCII, and
    /// `%`, `#` and `?`, so distinct paths always give distinct strings (cache keys rely on it).
    var fileURL: String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = Array("file://".utf8)
        out.reserveCapacity(out.count + bytes.count)
        for byte in bytes {
            if byte <= 0x20 || byte >= 0x7f || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "#")
                || byte == UInt8(ascii: "?")
            {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0f)])
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
