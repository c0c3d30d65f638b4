import DarkroomPluginKit

/// The module `example-swift` 1.0.0: one processor, `sepia`.
enum ExampleSwiftModule {
    static let definition = PluginModuleDefinition(name: "example-swift", version: "1.0.0", processors: [Sepia.self])
}

/// The entry point Darkroom looks up after loading the library (`darkroom_plugin_entry`).
@_cdecl("darkroom_plugin_entry")
public func entry(_ abi: UInt32) -> UnsafePointer<darkroom_plugin>? { ExampleSwiftModule.definition.descriptor }
