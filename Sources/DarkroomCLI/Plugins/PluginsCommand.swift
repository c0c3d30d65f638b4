import ArgumentParser
import DarkroomCodecs
import DarkroomCore
import DarkroomPlugins
import Foundation

/// `darkroom plugins`: every module this binary runs with — built in or loaded from `--plugins`
/// directories — with its processors, providers and coders, and every plugin it refused.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the plugin modules (built in and loaded), their processors, providers and coders, and refused plugins.",
        discussion: "Exit status: 0 when every plugin loaded, 1 when any was refused (each is listed with its reason)."
    )

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup(title: "Plugins")
    var plugins: PluginOptions

    func run() throws {
        let catalog = Registries.catalog(plugins.searchPath)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(PluginsListing(catalog)), as: UTF8.self))
        } else {
            printText(catalog)
        }
        if !catalog.refusals.isEmpty { throw ExitCode(1) }
    }

    private func printText(_ catalog: PluginCatalog) {
        for module in catalog.modules {
            print("module \(module.name) \(module.version)  (\(module.origin))")
            for descriptor in module.processors {
                print("  \(descriptor.signature)   [v\(descriptor.version)]")
                if !descriptor.summary.isEmpty { print("      \(descriptor.summary)") }
                for parameter in descriptor.parameters {
                    let requirement = parameter.defaultValue.map { "default \($0)" } ?? (parameter.isOptional ? "optional" : "required")
                    print(
                        "      \(parameter.name): \(parameter.expectation); \(requirement)\(parameter.summary.isEmpty ? "" : " — \(parameter.summary)")"
                    )
                }
            }
            let schemes = module.providers.flatMap(\.schemes).sorted()
            if !schemes.isEmpty { print("  providers: " + schemes.map { "\($0):" }.joined(separator: " ")) }
            if !module.readableFormats.isEmpty { print("  reads: " + module.readableFormats.map(\.rawValue).joined(separator: ", ")) }
            if !module.encoders.isEmpty { print("  writes: " + module.encoders.map(\.format.rawValue).joined(separator: ", ")) }
        }
        for refusal in catalog.refusals {
            print("refused \(refusal.path)\n  \(refusal.reason)")
        }
    }
}

/// `darkroom plugins --json`: `processors` holds one record per processor, with the fields the
/// listing has always had; `modules` and `refused` describe where they come from.
struct PluginsListing: Encodable {
    struct Module: Encodable {
        var name: String
        var version: String
        /// `built in`, or the shared library's path.
        var origin: String
        var builtIn: Bool
        var processors: [String]
        var providers: [String]
        var reads: [String]
        var writes: [String]
    }
    struct Refusal: Encodable {
        var path: String
        var reason: String
    }

    var processors: [ProcessorListing]
    var modules: [Module]
    var refused: [Refusal]

    init(_ catalog: PluginCatalog) {
        processors = catalog.modules.flatMap { module in
            module.processors.map { ProcessorListing($0, module: module) }
        }
        modules = catalog.modules.map { module in
            Module(
                name: module.name, version: module.version, origin: module.origin.description, builtIn: module.origin == .builtIn,
                processors: module.processors.map(\.name), providers: module.providers.flatMap(\.schemes).sorted(),
                reads: module.readableFormats.map(\.rawValue), writes: module.encoders.map(\.format.rawValue))
        }
        refused = catalog.refusals.map { Refusal(path: $0.path, reason: $0.reason) }
    }
}

struct ProcessorListing: Encodable {
    struct Parameter: Encodable {
        var name: String
        var accepts: String
        var `default`: String?
        /// `true` for an optional parameter without a default; absent otherwise.
        var optional: Bool?
        var summary: String
    }
    var name: String
    var version: Int
    var summary: String
    var signature: String
    /// The module's name (`standard` for the built-in processors).
    var plugin: String
    var parameters: [Parameter]

    init(_ descriptor: ProcessorDescriptor, module: PluginModule) {
        name = descriptor.name
        version = descriptor.version
        summary = descriptor.summary
        signature = descriptor.signature
        plugin = module.name
        parameters = descriptor.parameters.map {
            .init(
                name: $0.name, accepts: $0.expectation, default: $0.defaultValue?.description, optional: $0.isOptional ? true : nil,
                summary: $0.summary)
        }
    }
}
