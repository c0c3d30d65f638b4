import DarkroomFuzzTargets
import Foundation
import Testing

/// Every committed fuzz input (the corpora, and the findings kept as regressions) through its
/// target, without the fuzzer: what once crashed a parser must now end in a result or a typed
/// error, and the properties the targets check must hold. The fuzzer itself runs in
/// `scripts/fuzz.sh`.
@Suite("Fuzz corpora replayed")
struct FuzzCorpusReplayTests {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    @Test("Every corpus and regression input runs through its target", arguments: FuzzTarget.all.map(\.name))
    func replay(target name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        var count = 0
        for kind in ["Corpus", "Regressions"] {
            let directory = Self.fuzzDirectory.appendingPathComponent(kind).appendingPathComponent(name)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for file in files.sorted() where !file.hasPrefix(".") {
                let data = try Data(contentsOf: directory.appendingPathComponent(file))
                data.withUnsafeBytes { target.run($0) }
                count += 1
            }
        }
        // Every target has a committed corpus; the image targets' seeds are also the codec
        // fixtures, which their own tests decode.
        #expect(count > 0, "no committed inputs for \(name)")
    }
}
