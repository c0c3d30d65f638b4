import DarkroomCore
import DarkroomStandardProcessors

/// The processors this binary knows: the standard plugin (and, later, external plugins).
enum Registries {
    static func processors() -> ProcessorRegistry {
        var registry = ProcessorRegistry()
        StandardProcessors.register(into: &registry)
        return registry
    }
}
