import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors

/// Chain text: parse and bind against the standard processors. A chain that binds prints a
/// canonical text, which must bind again and print itself (a property, not only "no crash"); a
/// width-only or height-only box (`400x`, `x300`) may reach only `downsample`, `resize` and `crop`,
/// with its given side in 1…65535 (what keeps a free side from any plugin).
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
        for processor in chain.processors {
            let invocation = processor.invocation
            for argument in invocation.arguments {
                guard case .oneSidedBox(let box) = argument.value else { continue }
                let side = max(box.width, box.height)
                if !["downsample", "resize", "crop", "extend"].contains(invocation.name) || !box.isOneSided || !(1...65_535).contains(side) {
                    FuzzFailure.stop("chain", "\(text.debugDescription) gives \(invocation.name) the one-sided box \(box)")
                }
            }
        }
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
