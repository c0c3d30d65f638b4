import DarkroomTestSupport
import Foundation

/// A scratch directory of credentials files for one test, removed by `remove()`.
struct CredentialsTestFiles {
    let directory: String

    init(_ label: String) throws {
        directory = try TestImages.makeDirectory("s3-credentials-" + label)
    }

    /// Writes `text` to `name` in the directory (through a temporary file renamed over it, so a
    /// reader never sees half a file); returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        let temporary = path + ".tmp-\(UInt32.random(in: 0...UInt32.max))"
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return path
    }

    /// A credentials file's text with one `default` profile.
    static func profile(_ name: String = "default", id: String, secret: String, token: String? = nil) -> String {
        "[\(name)]\naws_access_key_id = \(id)\naws_secret_access_key = \(secret)\n" + (token.map { "aws_session_token = \($0)\n" } ?? "")
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
