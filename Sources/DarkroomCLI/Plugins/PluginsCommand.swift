import ArgumentParser
import DarkroomCore
import Foundation

/// `darkroom plugins`: every processor this binary can run, with its arguments.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the processors this build offers, with their arguments and defaults."
    )

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let registry = Registries.processors()
        if json {
            let list = registry.all.map { descriptor in
                ProcessorListing(
                    name: descriptor.name, version: descriptor.version, summary: descriptor.summary,
                    signature: descriptor.signature, plugin: "standard",
                    parameters: descriptor.parameters.map {
                        .init(name: $0.name, accepts: $0.expectation, default: $0.defaultValue?.description, summary: $0.summary)
                    })
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(list), as: UTF8.self))
            return
        }
        for descriptor in registry.all {
            print("\(descriptor.signature)   [v\(descriptor.version)]")
            print("    \(descriptor.summary)")
            for parameter in descriptor.parameters {
                let requirement = parameter.defaultValue.map { "default \($0)" } ?? "required"
                print("    \(parameter.name): \(parameter.expectation); \(requirement)\(parameter.summary.isEmpty ? "" : " — \(parameter.summary)")")
            }
        }
    }
}

struct ProcessorListing: Encodable {
    struct Parameter: Encodable {
        var name: String
        var accepts: String
        var `default`: String?
        var summary: String
    }
    var name: String
    var version: Int
    var summary: String
    var signature: String
    var plugin: String
    var parameters: [Parameter]
}
