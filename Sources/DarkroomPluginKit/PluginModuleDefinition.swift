import CDarkroomPlugin

/// A plugin module written in Swift: its name, version and processors, and the C descriptor
/// (`darkroom_plugin`) the host reads, built once from them.
///
/// A plugin keeps one definition in a `static let` and exports the entry point the host looks
/// for. That is the whole boilerplate, three lines besides the definition:
///
/// ```swift
/// enum MyModule {
///     static let definition = PluginModuleDefinition(name: "my-module", version: "1.0.0", processors: [Sepia.self])
/// }
///
/// @_cdecl("darkroom_plugin_entry")
/// public func entry(_ abi: UInt32) -> UnsafePointer<darkroom_plugin>? { MyModule.definition.descriptor }
/// ```
///
/// `@_cdecl` exports the function under the C name `darkroom_plugin_entry` with the C calling
/// convention; `abi` is the host's ABI version, which the host itself checks against the
/// descriptor's `abi_version`. The `static let` is initialised once, thread-safely, on first use,
/// so the descriptor is built once per process whichever thread asks first. Build the product as
/// a dynamic library (`.library(name:type: .dynamic, targets:)`) that depends on
/// `DarkroomPluginKit` and nothing of Darkroom itself: plugin and host share only C types.
///
/// Everything the descriptor points to is allocated once and never freed, as the ABI requires
/// (see `PermanentStorage`); making a second definition allocates a second descriptor, which is
/// why the definition belongs in a `static let` and nowhere else.
///
/// `@unchecked Sendable` is sound: every stored property is a constant, and the memory behind
/// `descriptor` is written only inside `init`, before the definition is published (the `static
/// let`'s one-time initialisation orders it before every read), and never again — the host only
/// reads it, by the ABI's rules.
public final class PluginModuleDefinition: @unchecked Sendable {
    /// The module's name: lower-case letters, digits, `-` and `_`, starting with a letter.
    public let name: String
    /// The module's version: letters, digits, `.`, `-`, `+`. It is part of every one of its
    /// processors' identifiers, so a new version retires the results cached with the old.
    public let version: String
    public let processors: [any PluginProcessor.Type]
    /// The descriptor `darkroom_plugin_entry` returns; valid until the process exits.
    public let descriptor: UnsafePointer<darkroom_plugin>

    public init(name: String, version: String, processors: [any PluginProcessor.Type]) {
        self.name = name
        self.version = version
        self.processors = processors
        let table: [UnsafePointer<darkroom_processor>?] = processors.map { PermanentStorage.value(Self.describe($0)) }
        descriptor = PermanentStorage.value(
            darkroom_plugin(
                struct_size: UInt32(MemoryLayout<darkroom_plugin>.size), abi_version: DARKROOM_PLUGIN_ABI_VERSION,
                name: PermanentStorage.cString(name), version: PermanentStorage.cString(version),
                processors: PermanentStorage.array(table), processor_count: UInt32(table.count),
                providers: nil, provider_count: 0, coders: nil, coder_count: 0))
    }

    /// A processor's `darkroom_processor`: its declarations, and C callbacks that find the Swift
    /// type again through `user_data`.
    private static func describe(_ processor: any PluginProcessor.Type) -> darkroom_processor {
        let parameters = processor.parameters
        let summary = processor.summary
        return darkroom_processor(
            struct_size: UInt32(MemoryLayout<darkroom_processor>.size), name: PermanentStorage.cString(processor.name),
            version: UInt32(clamping: processor.version), summary: summary.isEmpty ? nil : PermanentStorage.cString(summary),
            params: PermanentStorage.array(parameters.map(describe)), param_count: UInt32(parameters.count),
            flags: processor.introducesTransparency ? DARKROOM_PROCESSOR_INTRODUCES_TRANSPARENCY : 0,
            user_data: ProcessorBinding(processor: processor, parameters: parameters).permanentPointer(),
            output_size: { values, count, width, height, outputWidth, outputHeight, userData, error in
                ProcessorCallbacks.outputSize(values, count, width, height, outputWidth, outputHeight, userData, error)
            },
            process: { values, count, input, output, userData, error in
                ProcessorCallbacks.process(values, count, input, output, userData, error)
            })
    }

    /// A parameter's `darkroom_param`.
    private static func describe(_ parameter: PluginParameter) -> darkroom_param {
        var param = darkroom_param()
        param.name = PermanentStorage.cString(parameter.name)
        param.default_value = PermanentStorage.cString(parameter.defaultText)
        param.summary = parameter.summary.isEmpty ? nil : PermanentStorage.cString(parameter.summary)
        switch parameter.kind {
        case .number(let range):
            (param.kind, param.min, param.max) = (DARKROOM_KIND_NUMBER, range.lowerBound, range.upperBound)
        case .integer(let range):
            (param.kind, param.min, param.max) = (DARKROOM_KIND_INTEGER, Double(range.lowerBound), Double(range.upperBound))
        case .size:
            param.kind = DARKROOM_KIND_SIZE
        case .color:
            param.kind = DARKROOM_KIND_COLOR
        case .choice(let words):
            param.kind = DARKROOM_KIND_CHOICE
            param.choices = PermanentStorage.array(words.map { Optional(PermanentStorage.cString($0)) })
            param.choice_count = UInt32(words.count)
        }
        return param
    }
}
