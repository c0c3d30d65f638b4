import DarkroomCore
import DarkroomStandardProcessors

/// Chains for the pipeline tests, bound against the standard processors. Images and scratch
/// directories come from `DarkroomTestSupport.TestImages`.
enum PipelineTestSupport {
    static func chain(_ text: String) throws -> ProcessorChain {
        try StandardProcessors.registry.chain(from: text)
    }
}
