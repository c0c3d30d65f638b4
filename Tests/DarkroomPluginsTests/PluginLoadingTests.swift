import DarkroomChains
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomPlugins

@Suite("Loading plugin modules")
struct PluginLoadingTests {
    @Test("A C plugin in a plugins directory loads as a module with its processors and their schemas")
    func cPluginLoads() throws {
        // Given a directory holding the test plugin
        let directory = try PluginTestKit.directory("good")
        // When it is loaded
        let catalog = PluginTestKit.catalog(directory)
        // Then the module is there, from its file, with every processor and its parameters
        #expect(catalog.refusals.isEmpty)
        let module = try #require(catalog.modules.first { $0.name == "testkit" })
        #expect(module.version == "1.0.0")
        #expect(module.origin == .file(directory + "/libtestkit.so"))
        #expect(module.processors.map(\.name) == ["negate", "shrink", "fail", "explode", "tag"])
        let tag = try #require(catalog.processors.descriptor(named: "tag"))
        #expect(tag.signature == "tag(level, color: #00FF00FF, size: 1x1, strength: 0.5, shape: square)")
        #expect(tag.version == 2)
        #expect(tag.module == PluginModuleIdentity(name: "testkit", version: "1.0.0"))
    }

    @Test("The C example plugin from the guide loads and offers invert(amount: 1)")
    func exampleLoads() throws {
        let directory = try CPluginCompiler.makeDirectory("example")
        try CPluginCompiler.compile(CPluginCompiler.invertExample, into: directory, name: "libinvert.so")
        let catalog = PluginTestKit.catalog(directory)
        #expect(catalog.refusals.isEmpty)
        #expect(catalog.processors.descriptor(named: "invert")?.signature == "invert(amount: 1)")
    }

    @Test("The search path takes --plugins flags first, then DARKROOM_PLUGIN_PATH's entries, each once")
    func searchPath() {
        let path = PluginSearchPath(flags: ["/a", "/b"], environment: ["DARKROOM_PLUGIN_PATH": "/c::/a:/d"])
        #expect(path.directories == ["/a", "/b", "/c", "/d"])
        #expect(PluginSearchPath(flags: [], environment: [:]).directories.isEmpty)
    }

    @Test("Files that are not shared libraries are ignored, and libraries load in name order")
    func onlySharedLibraries() throws {
        let directory = try PluginTestKit.directory("order", defines: ["MODULE_NAME": PluginTestKit.quoted("b-module")], name: "libb.so")
        try CPluginCompiler.compile(
            CPluginCompiler.testPlugin, defines: ["MODULE_NAME": PluginTestKit.quoted("a-module"), "NEGATE_NAME": PluginTestKit.quoted("negate2")],
            into: directory, name: "liba.so")
        try Data("notes".utf8).write(to: URL(fileURLWithPath: directory + "/README.txt"))
        let catalog = PluginTestKit.catalog(directory)
        // liba.so loads first, so the second module's clashing processors are what is refused.
        #expect(catalog.modules.map(\.name).suffix(1) == ["a-module"])
        #expect(catalog.refusals.map(\.path) == [directory + "/libb.so"])
    }

    @Test("A Swift plugin is told apart from a C one by its ELF dependencies, before it is loaded")
    func swiftPluginsAreRecognised() throws {
        let swift = try DarkroomBinary.path(named: "libDarkroomExampleSwiftPlugin.so")
        #expect(ELFDependencies.neededLibraries(of: swift).contains { $0.hasPrefix("libswiftCore.so") })
        let directory = try CPluginCompiler.makeDirectory("elf")
        let c = try CPluginCompiler.compile(CPluginCompiler.testPlugin, into: directory, name: "libtestkit.so")
        let needed = ELFDependencies.neededLibraries(of: c)
        #expect(needed.contains { $0.hasPrefix("libc.so") })
        #expect(!needed.contains { $0.hasPrefix("libswiftCore.so") })
        // This test binary links the shared Swift runtime, so Swift plugins may load into it.
        #expect(SwiftRuntimeCheck.hostUsesSharedSwiftRuntime)
        #expect(SwiftRuntimeCheck.problem(loading: swift) == nil)
    }
}
