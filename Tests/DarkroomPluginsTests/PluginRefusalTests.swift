import DarkroomCore
import DarkroomPlugins
import DarkroomTestSupport
import Foundation
import Testing

/// Every reason a plugin is refused, with its exact message; the other plugins still load.
@Suite("Refusing plugins")
struct PluginRefusalTests {
    /// Loads `directory` and returns the one refusal's reason, checking the path it names.
    private func refusal(in directory: String, file: String = "libtestkit.so") throws -> String {
        let catalog = PluginTestKit.catalog(directory)
        let refusal = try #require(catalog.refusals.first)
        #expect(catalog.refusals.count == 1)
        #expect(refusal.path == directory + "/" + file)
        #expect(!catalog.modules.contains { $0.name == "testkit" })
        return refusal.reason
    }

    @Test("A plugin built for another ABI version is refused, naming both versions")
    func wrongABI() throws {
        let directory = try PluginTestKit.directory("abi", defines: ["ABI_VERSION": "99"])
        #expect(
            try refusal(in: directory)
                == "it was built for plugin ABI version 99; this darkroom implements version 1 (rebuild it against this darkroom's darkroom_plugin.h)")
    }

    @Test("A library without the entry symbol is refused")
    func missingEntry() throws {
        let directory = try PluginTestKit.directory("entry", defines: ["NO_ENTRY": "1"])
        #expect(
            try refusal(in: directory)
                == "it exports no darkroom_plugin_entry symbol (is it a Darkroom plugin? export the entry with DARKROOM_EXPORT)")
    }

    @Test("A processor named like a built-in is refused, and so the whole module")
    func clashWithBuiltIn() throws {
        let directory = try PluginTestKit.directory("clash", defines: ["NEGATE_NAME": PluginTestKit.quoted("blur")])
        #expect(try refusal(in: directory) == "processor 'blur' clashes with the one in the built-in module 'standard'")
    }

    @Test("A module name taken by another plugin is refused; the first one stays")
    func clashBetweenPlugins() throws {
        let directory = try PluginTestKit.directory("twice", name: "liba.so")
        try CPluginCompiler.compile(CPluginCompiler.testPlugin, into: directory, name: "libb.so")
        let catalog = PluginTestKit.catalog(directory)
        #expect(catalog.modules.filter { $0.name == "testkit" }.count == 1)
        #expect(catalog.refusals.map(\.path) == [directory + "/libb.so"])
        #expect(catalog.refusals.first?.reason == "module name 'testkit' is already taken by module 'testkit' 1.0.0 (\(directory)/liba.so)")
    }

    @Test("A malformed schema is refused, naming the processor and the parameter")
    func malformedRange() throws {
        let directory = try PluginTestKit.directory("schema", defines: ["BROKEN_SCHEMA": "1"])
        #expect(try refusal(in: directory) == "processor 'tag': parameter 'strength': range 1.0…0.0 must be finite with min <= max")
    }

    @Test("A default outside its own range is refused like a bad argument in a chain")
    func badDefault() throws {
        let directory = try PluginTestKit.directory("default", defines: ["BAD_DEFAULT": "1"])
        #expect(try refusal(in: directory) == "processor 'tag': default of 'strength': strength must be in 0…1 (got 2)")
    }

    @Test("A plugin file writable by group or others is refused")
    func groupWritableFile() throws {
        let directory = try PluginTestKit.directory("mode")
        chmod(directory + "/libtestkit.so", 0o775)
        #expect(
            try refusal(in: directory)
                == "the file is writable by group or others (mode 775; chmod go-w '\(directory)/libtestkit.so')")
    }

    @Test("A plugins directory writable by others is refused with none of its plugins loaded")
    func worldWritableDirectory() throws {
        let directory = try PluginTestKit.directory("dirmode")
        chmod(directory, 0o757)
        let catalog = PluginTestKit.catalog(directory)
        #expect(catalog.refusals.map(\.path) == [directory])
        #expect(
            catalog.refusals.first?.reason
                == "the directory is writable by group or others (mode 757; chmod go-w '\(directory)'); none of its plugins were loaded")
        #expect(!catalog.modules.contains { $0.name == "testkit" })
    }

    @Test("A plugin under a directory, further up, that group or others can write is refused")
    func writableAncestor() throws {
        let outer = try CPluginCompiler.makeDirectory("ancestor")
        let inner = outer + "/plugins"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: false)
        chmod(inner, 0o755)
        try CPluginCompiler.compile(CPluginCompiler.testPlugin, into: inner, name: "libtestkit.so")
        chmod(outer, 0o775)
        #expect(
            try refusal(in: inner)
                == "the directory '\(outer)' above it is writable by group or others (mode 775; chmod go-w '\(outer)')")
    }

    @Test("A plugin owned by another user (not root) is refused", .enabled(if: geteuid() == 0, "needs root to chown the file"))
    func foreignOwner() throws {
        let directory = try PluginTestKit.directory("owner")
        #expect(chown(directory + "/libtestkit.so", 4321, 4321) == 0)
        #expect(try refusal(in: directory) == "the file is owned by uid 4321, not by this user (uid 0) or root (chown it)")
    }

    @Test("A missing plugins directory is a refusal, not a crash, and the rest still load")
    func missingDirectory() throws {
        let good = try PluginTestKit.directory("rest")
        let catalog = PluginTestKit.catalog("/nonexistent/plugins", good)
        #expect(catalog.refusals.map(\.path) == ["/nonexistent/plugins"])
        #expect(catalog.refusals.first?.reason == "not a directory (check --plugins and DARKROOM_PLUGIN_PATH)")
        #expect(catalog.modules.contains { $0.name == "testkit" })
    }

    @Test("A file that is not a loadable library is refused with the loader's reason")
    func notALibrary() throws {
        let directory = try CPluginCompiler.makeDirectory("garbage")
        let path = directory + "/libgarbage.so"
        try Data("not an ELF file".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        let reason = try refusal(in: directory, file: "libgarbage.so")
        #expect(reason.hasPrefix("cannot be loaded: "))
    }
}
