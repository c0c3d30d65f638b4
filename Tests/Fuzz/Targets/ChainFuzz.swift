import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors

/// Chain text: parse and bind against the standard processors. A chain that binds prints a
/// canonical text, which must bind again and print itself (a property, not only "no crash").
enum ChainFuzz {
    static let target = FuzzTarget(
        name: "chain",
        summary: "chain text: parse, bind, canonicalise; the canonical text must parse back to itself"
    ) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let registry = StandardProcessors.registry
        let chain: ProcessorChain
        do throws(ChainError) {
            chain = try registry.chain(from: text)
        } catch {
            return  // a typed ChainError is the expected end for bad text
        }
        let canonical = chain.canonicalText
        do throws(ChainError) {
            let again = try registry.chain(from: canonical).canonicalText
            if again != canonical {
                FuzzFailure.stop("chain", "\(text.debugDescription) prints \(canonical.debugDescription), which prints \(again.debugDescription)")
            }
        } catch {
            FuzzFailure.stop("chain", "\(text.debugDescription) prints \(canonical.debugDescription), which does not parse: \(error)")
        }
    }
}
