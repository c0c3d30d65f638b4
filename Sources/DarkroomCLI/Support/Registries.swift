import DarkroomClient
import DarkroomCore

/// The processors this binary knows: the standard plugin (and, later, external plugins).
enum Registries {
    static func processors() -> ProcessorRegistry {
        FleetClient.standardProcessors()
    }
}
