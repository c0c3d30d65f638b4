import DarkroomCore
import Testing

/// Checks every processor's chain text must pass, shared by the geometry and colour suites.
enum ChainSyntaxChecks {
    /// `text` parses to `canonical`, which parses back to itself with the same identifier and
    /// hashable identity.
    static func roundTrip(_ text: String, canonical: String, registry: ProcessorRegistry) throws {
        let chain = try registry.chain(from: text)
        #expect(chain.canonicalText == canonical)
        let again = try registry.chain(from: chain.canonicalText)
        #expect(again.canonicalText == canonical)
        #expect(again.identifier == chain.identifier)
        #expect(again.hashableIdentifier == chain.hashableIdentifier)
    }
}
