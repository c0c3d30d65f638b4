import Testing

@Suite("Error code registry: every produced code is documented, every documented code produced")
struct ErrorCodeRegistryTests {
    @Test("every code that can be produced is in the table in docs/limits-and-errors.md")
    func producedCodesAreInTheTable() throws {
        let table = Set(try DocumentedCodes.table())
        for (code, producers) in ProducedCodes.all.sorted(by: { $0.key < $1.key }) where !table.contains(code) {
            Issue.record("\(code) (from \(producers.sorted().joined(separator: ", "))) is missing from the table in docs/limits-and-errors.md")
        }
    }

    @Test("every code in the table is produced by something, once")
    func tableCodesAreProduced() throws {
        let produced = ProducedCodes.all
        var seen: Set<String> = []
        for code in try DocumentedCodes.table() {
            if produced[code] == nil { Issue.record("\(code) is in the table in docs/limits-and-errors.md but nothing produces it") }
            if !seen.insert(code).inserted { Issue.record("\(code) is twice in the table in docs/limits-and-errors.md") }
        }
    }

    @Test("every code any page names is produced; a family wildcard names a family that exists")
    func namedCodesAreProduced() throws {
        let produced = ProducedCodes.all
        let families = ProducedCodes.families
        for page in try DocumentedCodes.pages() {
            for token in try DocumentedCodes.tokens(in: page, families: families) where produced[token] == nil {
                guard !token.hasSuffix(".*") else { continue }
                Issue.record("\(page) names \(token), which nothing produces")
            }
        }
    }

    @Test("the parsers find what they should: the table is long, a page's tokens are found")
    func parsersWork() throws {
        #expect(try DocumentedCodes.table().count >= 60)
        #expect(try DocumentedCodes.tokens(in: "docs/queue.md", families: ProducedCodes.families).contains("queue.stalled"))
        #expect(ProducedCodes.all["worker.cancelled"] == ["ErrorSummary.Code"])
    }
}
