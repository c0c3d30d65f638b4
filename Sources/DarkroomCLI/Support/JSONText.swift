import DarkroomQueue
import Foundation

/// The `--json` output of every command: one compact line with the record settings (sorted keys,
/// unescaped slashes; see `RecordJSON`), so all commands print JSON the same stable way.
enum JSONText {
    static func line(_ value: some Encodable) throws -> String {
        String(decoding: try RecordJSON.encoder().encode(value), as: UTF8.self)
    }
}
