import CDarkroomPlugin

/// The reading of a plugin's descriptor that the loader does after `dlopen`, reached without a
/// shared library by the `plugin` fuzz target (docs/fuzzing.md). An SPI, not part of the API.
@_spi(Fuzzing) public enum PluginDescriptorCheck {
    /// The module `plugin` describes, or the reason the loader would refuse it.
    public static func read(_ plugin: UnsafePointer<darkroom_plugin>) -> Result<PluginModule, PluginDescriptorRefusal> {
        do {
            return .success(try ExternalModuleReader(origin: "fuzz").read(plugin))
        } catch {
            return .failure(PluginDescriptorRefusal(reason: error.reason))
        }
    }
}

/// Why a descriptor was refused, as `PluginDescriptorCheck` reports it.
@_spi(Fuzzing) public struct PluginDescriptorRefusal: Error {
    public var reason: String
}
