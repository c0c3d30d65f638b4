import DarkroomChains
import DarkroomQueue
import Testing

/// `Capabilities.baselineProcessors` (in `DarkroomQueue`, which links no chain code) and
/// `StandardProcessorSpecs` (in `DarkroomChains`) are written apart on purpose: the baseline is
/// frozen, the standard specs grow. These tests hold them together where they must agree.
@Suite("The baseline processors and the standard specs")
struct BaselineProcessorsTests {
    @Test("Given the standard specs, then every baseline processor is still one of them")
    func baselineIsStandard() {
        let standard = Set(StandardProcessorSpecs.all.map(\.name))
        let vanished = Capabilities.baselineProcessors.subtracting(standard)
        // A baseline name missing here would let a job for a processor nobody runs need nothing.
        #expect(standard.isSuperset(of: Capabilities.baselineProcessors), "baseline names missing from the standard specs: \(vanished.sorted())")
    }

    @Test("Given the standard specs in documented order, then the first 13 are exactly the baseline")
    func firstThirteenAreBaseline() {
        let firstThirteen = Set(StandardProcessorSpecs.all.prefix(13).map(\.name))
        #expect(StandardProcessorSpecs.all.count >= 13)
        // A standard processor added later goes after these, and requires its capability.
        #expect(firstThirteen == Capabilities.baselineProcessors)
    }
}
