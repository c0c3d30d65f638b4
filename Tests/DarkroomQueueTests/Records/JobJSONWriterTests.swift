import DarkroomQueue
import DarkroomQueueContract
import Foundation
import Testing

@Suite("Hand-written job JSON")
struct JobJSONWriterTests {
    private static func text(_ random: inout QueueContractRandom, allowControl: Bool, length: ClosedRange<Int> = 1...24) -> String {
        AwkwardText.make(&random, allowControl: allowControl, length: length)
    }

    /// Nil, or 1–4 sorted capability names such as `processor:sharpen@2` and `output-name`.
    private static func requirements(_ random: inout QueueContractRandom) -> [String]? {
        guard Bool.random(using: &random) else { return nil }
        let pool = ["output-name", "processor:sharpen", "processor:x.y_z@2", "renditions", "a", "B-9"]
        return Capabilities.canonical((0..<Int.random(in: 1...4, using: &random)).compactMap { _ in pool.randomElement(using: &random) })
    }

    /// Nil, or a JSON object's text with awkward strings (escapes, control characters, non-ASCII).
    private static func metadata(_ random: inout QueueContractRandom) -> String? {
        guard Bool.random(using: &random) else { return nil }
        let value = JobMetadata.Value.object([
            text(&random, allowControl: true): .string(text(&random, allowControl: true)),
            "n": .integer(Int64.random(in: -1_000_000...1_000_000, using: &random)),
            "nested": .object(["list": .array([.bool(true), .null, .number(1.5)])]),
        ])
        guard case .success(let text) = JobMetadata.canonicalText(value) else { return nil }
        return text
    }

    /// For about a quarter of the jobs: 1–3 renditions with awkward chains, formats and qualities
    /// (the job's chain then the marker), and a `lastError` naming renditions written.
    private static func addRenditions(to job: inout Job, _ random: inout QueueContractRandom) {
        guard Int.random(in: 0...3, using: &random) == 0 else { return }
        let names = ["a", "large", "thumb_2", "X-9"].shuffled(using: &random)
        job.renditions = (0..<Int.random(in: 1...3, using: &random)).map { index in
            JobRendition(
                name: names[index], chain: text(&random, allowControl: true, length: 0...24),
                format: Bool.random(using: &random) ? text(&random, allowControl: true, length: 1...4) : nil,
                quality: Bool.random(using: &random) ? Int.random(in: 1...100, using: &random) : nil)
        }
        job.chain = Job.renditionsChain
        if job.name?.contains("{name}") == true { job.name = nil }
        job.lastError?.written = Bool.random(using: &random) ? [names[0], text(&random, allowControl: true)] : nil
    }

    @Test("Given 2,000 randomised jobs, the writer produces exactly JSONEncoder's bytes for each")
    func matchesJSONEncoder() throws {
        var random = QueueContractRandom(seed: 99)
        for index in 0..<2_000 {
            let id = JobID(rawValue: Self.text(&random, allowControl: false)) ?? JobID.make()
            var job = Job(
                id: id, batch: Self.text(&random, allowControl: false),
                source: Self.text(&random, allowControl: true), chain: Self.text(&random, allowControl: true),
                format: Bool.random(using: &random) ? Self.text(&random, allowControl: true, length: 1...4) : nil,
                quality: Bool.random(using: &random) ? Int.random(in: 1...100, using: &random) : nil,
                priority: JobPriority.allCases.randomElement(using: &random) ?? .normal,
                output: Bool.random(using: &random) ? Self.text(&random, allowControl: true) : nil,
                attempt: Int.random(in: 1...1_000_000, using: &random),
                enqueuedAt: Timestamp(millisecondsSince1970: Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &random)),
                notBefore: Bool.random(using: &random) ? Timestamp(millisecondsSince1970: Int64(index) * 987_654_321) : nil,
                lastError: Bool.random(using: &random)
                    ? JobError(code: Self.text(&random, allowControl: true), message: Self.text(&random, allowControl: true)) : nil,
                firstFrameOnly: [nil, true, false].randomElement(using: &random) ?? nil,
                name: Bool.random(using: &random) ? Self.text(&random, allowControl: true) : nil,
                requires: Self.requirements(&random),
                metadata: Self.metadata(&random),
                webhook: Bool.random(using: &random) ? Self.text(&random, allowControl: true, length: 1...16) : nil)
            Self.addRenditions(to: &job, &random)
            let expected = Array(try job.jsonData())
            let written = JobJSONWriter.bytes(job)
            #expect(written == expected, "job \(index): \(String(decoding: written, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
            if written != expected { return }
            #expect(Job.decode(Data(written)) == .job(job))
        }
    }
}
