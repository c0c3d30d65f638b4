import DarkroomTestSupport
import Foundation
import Testing

/// The registry can only list types it knows: this scans `Sources/` and `Plugins/` for every
/// type declared as a `DarkroomError`, so a new one that is not in `ProducedCodes` (or that has
/// no typed, enumerable code) fails here instead of being silently undocumented.
@Suite("Error types: every DarkroomError in the sources has a typed code and is in the registry")
struct ErrorTypeDeclarationsTests {
    /// `(file, type name, conformance list)` of each `struct`/`enum`/`class` conforming to a
    /// Darkroom error protocol.
    static func declarations() throws -> [(file: String, name: String, conformances: String)] {
        let root = PluginBuilds.repositoryRoot
        var found: [(String, String, String)] = []
        for top in ["Sources", "Plugins"] {
            guard let files = FileManager.default.enumerator(atPath: root + "/" + top) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + top + "/" + file, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let kind = words.firstIndex(where: { ["struct", "enum", "class"].contains($0) }),
                        kind + 1 < words.count, words[kind + 1].hasSuffix(":"), line.contains("DarkroomError")
                    else { continue }
                    found.append((top + "/" + file, String(words[kind + 1].dropLast()), String(line)))
                }
            }
        }
        return found
    }

    @Test("each declared error type conforms to CodedDarkroomError and is listed")
    func everyTypeIsRegistered() throws {
        let declarations = try Self.declarations()
        #expect(declarations.count >= ProducedCodes.errorTypes.count)
        for declaration in declarations {
            if !declaration.conformances.contains("CodedDarkroomError") {
                Issue.record("\(declaration.file): \(declaration.name) is a DarkroomError without a typed code (conform to CodedDarkroomError)")
            }
            if ProducedCodes.errorTypes[declaration.name] == nil {
                Issue.record("\(declaration.file): \(declaration.name) is not in ProducedCodes.errorTypes")
            }
        }
    }
}
