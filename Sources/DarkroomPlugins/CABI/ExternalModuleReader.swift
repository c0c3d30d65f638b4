import CDarkroomPlugin
import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomSchema
import DarkroomSources
import DarkroomSystem

/// Reads a plugin's C descriptor into a `PluginModule`, checking everything the header requires:
/// sizes, the ABI version, names, and each processor's parameter schema. Any problem refuses the
/// whole module with a message naming the processor and parameter.
///
struct ExternalModuleReader {
    /// Why a descriptor was refused.
    struct Refusal: Error {
        var reason: String
    }

    let origin: String

    func read(_ plugin: UnsafePointer<darkroom_plugin>) throws(Refusal) -> PluginModule {
        // `abi_version` is read first, and only within the size the plugin says its struct has.
        let size = Int(plugin.pointee.struct_size)
        guard size >= MemoryLayout<UInt32>.size * 2 else {
            throw Refusal(reason: "its descriptor's struct_size is \(size); set it to sizeof(darkroom_plugin)")
        }
        let abi = plugin.pointee.abi_version
        guard abi == DARKROOM_PLUGIN_ABI_VERSION else {
            throw Refusal(
                reason:
                    "it was built for plugin ABI version \(abi); this darkroom implements version \(DARKROOM_PLUGIN_ABI_VERSION) (rebuild it against this darkroom's darkroom_plugin.h)"
            )
        }
        // Version 1 is the first: every field of today's struct must be there.
        try requireSize(size, of: darkroom_plugin.self, "darkroom_plugin")
        let descriptor = plugin.pointee
        guard let name = Self.string(descriptor.name) else { throw Refusal(reason: "its module name is NULL or not UTF-8") }
        if let problem = PluginModuleIdentity.problem(withName: name) { throw Refusal(reason: problem) }
        guard let version = Self.string(descriptor.version) else { throw Refusal(reason: "module '\(name)' has a NULL or non-UTF-8 version") }
        if let problem = PluginModuleIdentity.problem(withVersion: version) { throw Refusal(reason: problem) }
        let identity = PluginModuleIdentity(name: name, version: version)

        var processors: [ProcessorDescriptor] = []
        for processor in try Self.entries(descriptor.processors, count: descriptor.processor_count, "processor", module: name) {
            let read = try readProcessor(processor, module: identity)
            if processors.contains(where: { $0.name == read.name }) {
                throw Refusal(reason: "module '\(name)' declares processor '\(read.name)' twice")
            }
            processors.append(read)
        }
        var providers: [ProviderFactory] = []
        for provider in try Self.entries(descriptor.providers, count: descriptor.provider_count, "provider", module: name) {
            let entry = try readProvider(provider, module: identity)
            if providers.contains(where: { $0.schemes.contains(entry.scheme) }) {
                throw Refusal(reason: "module '\(name)' declares scheme '\(entry.scheme)' twice")
            }
            // Each plugin provider gets threads of its own: one that blocks past its timeouts
            // keeps its threads busy, and must not starve the HTTP provider's.
            providers.append(
                ProviderFactory(schemes: [entry.scheme]) { _ in
                    ExternalProvider(entry: entry, pool: BlockingWorkPool(threadCount: ExternalProvider.threadCount))
                })
        }
        var decoders: [any ImageDecoding] = []
        var encoders: [any ImageEncoding] = []
        var formats: Set<ImageFormat> = []
        for coder in try Self.entries(descriptor.coders, count: descriptor.coder_count, "coder", module: name) {
            let entry = try readCoder(coder, module: identity)
            guard formats.insert(entry.format).inserted else { throw Refusal(reason: "module '\(name)' declares format '\(entry.format)' twice") }
            // Every coder reads headers (the cache describes stored results that way); whether it
            // decodes pixels is the decoder's to say.
            decoders.append(ExternalDecoder(entry: entry))
            if entry.encode != nil { encoders.append(ExternalEncoder(entry: entry)) }
        }
        guard !processors.isEmpty || !providers.isEmpty || !formats.isEmpty else {
            throw Refusal(reason: "module '\(name)' offers no processors, providers or coders")
        }
        return PluginModule(
            identity: identity, origin: .file(origin), processors: processors, providers: providers, decoders: decoders, encoders: encoders)
    }

    private func readCoder(_ pointer: UnsafePointer<darkroom_coder>, module: PluginModuleIdentity) throws(Refusal) -> ExternalCoderEntry {
        let coder = try Self.coder(pointer)
        let text = Self.string(coder.format)
        guard let name = text, let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.unicodeScalars.count <= 16,
            name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        else {
            throw Refusal(
                reason: "module '\(module.name)': coder format '\(text ?? "NULL")' must be 1 to 16 lower-case letters and digits, starting with a letter")
        }
        func malformed(_ problem: String) -> Refusal { Refusal(reason: "coder '\(name)': \(problem)") }
        // `jpg`, `jpe` and the like already name a built-in format on the command line.
        if let builtIn = ImageFormat(name: name) {
            throw Refusal(reason: "coder format '\(name)' names the built-in format \(builtIn); choose another name")
        }
        guard coder.decode != nil || coder.decode_ex != nil || coder.encode != nil else {
            throw malformed("decode, decode_ex and encode are all NULL")
        }
        // The cache describes a stored result by reading its header, and inputs are chosen by
        // sniffing: a coder that decodes or encodes must also sniff and read headers.
        guard coder.sniff != nil, coder.read_info != nil else { throw malformed("sniff and read_info are required") }
        return ExternalCoderEntry(
            format: ImageFormat(rawValue: name), module: module, userData: coder.user_data, sniff: coder.sniff, readInfo: coder.read_info,
            decode: coder.decode, encode: coder.encode, decodeEx: coder.decode_ex)
    }

    /// The size of `darkroom_coder` in the first release of ABI version 1, before `decode_ex`: the
    /// least a coder's `struct_size` may say.
    static let firstCoderSize = MemoryLayout<darkroom_coder>.offset(of: \.decode_ex)!

    /// The plugin's coder, with the members past its `struct_size` (added after it was compiled)
    /// zero. Only the bytes inside `struct_size` are read: an older plugin's struct is shorter.
    static func coder(_ pointer: UnsafePointer<darkroom_coder>) throws(Refusal) -> darkroom_coder {
        // `struct_size` is the first member: read it alone, before anything of unknown length.
        let size = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
        guard size >= firstCoderSize else {
            throw Refusal(
                reason: "its darkroom_coder has struct_size \(size); ABI version 1 needs at least \(firstCoderSize) (set it to sizeof(darkroom_coder))")
        }
        var coder = darkroom_coder()
        withUnsafeMutableBytes(of: &coder) { copy in
            copy.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: min(size, MemoryLayout<darkroom_coder>.size)))
        }
        return coder
    }

    private func readProvider(_ pointer: UnsafePointer<darkroom_provider>, module: PluginModuleIdentity) throws(Refusal) -> ExternalProviderEntry {
        try requireSize(Int(pointer.pointee.struct_size), of: darkroom_provider.self, "darkroom_provider")
        let provider = pointer.pointee
        guard let scheme = Self.string(provider.scheme), Self.isValidScheme(scheme) else {
            throw Refusal(
                reason:
                    "module '\(module.name)': provider scheme '\(Self.string(provider.scheme) ?? "NULL")' must be 2 to 32 lower-case letters, digits, '+', '-' and '.', starting with a letter"
            )
        }
        guard let fetch = provider.fetch else { throw Refusal(reason: "provider '\(scheme):': fetch callback is NULL") }
        return ExternalProviderEntry(scheme: scheme, module: module, userData: provider.user_data, fetch: fetch)
    }

    /// The `count` entries of a descriptor's array of pointers, none of which may be NULL.
    private static func entries<T>(_ list: UnsafePointer<UnsafePointer<T>?>?, count: UInt32, _ what: String, module: String) throws(Refusal)
        -> [UnsafePointer<T>]
    {
        var entries: [UnsafePointer<T>] = []
        for index in 0..<Int(count) {
            guard let list, let entry = list[index] else { throw Refusal(reason: "module '\(module)': \(what) \(index) of \(count) is NULL") }
            entries.append(entry)
        }
        return entries
    }

    /// A URL scheme as RFC 3986 spells it, lower-case only (schemes compare case-insensitively),
    /// of 2 to 32 characters.
    static func isValidScheme(_ scheme: String) -> Bool {
        // At least two characters: a one-letter "scheme" is read as a Windows drive letter, a path.
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first), (2...32).contains(scheme.unicodeScalars.count) else {
            return false
        }
        return scheme.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
    }

    private func readProcessor(_ pointer: UnsafePointer<darkroom_processor>, module: PluginModuleIdentity) throws(Refusal) -> ProcessorDescriptor {
        try requireSize(Int(pointer.pointee.struct_size), of: darkroom_processor.self, "darkroom_processor")
        let processor = pointer.pointee
        guard let name = Self.string(processor.name), ProcessorRegistry.isValidName(name) else {
            throw Refusal(
                reason:
                    "module '\(module.name)': processor name '\(Self.string(processor.name) ?? "NULL")' must be letters, digits and _, starting with a letter")
        }
        func malformed(_ problem: String) -> Refusal { Refusal(reason: "processor '\(name)': \(problem)") }
        guard processor.version >= 1 else { throw malformed("version must be 1 or more") }
        guard let process = processor.process else { throw malformed("process callback is NULL") }
        guard processor.param_count <= 64 else { throw malformed("\(processor.param_count) parameters; at most 64") }
        var schema: [ProcessorSchema.Parameter] = []
        for index in 0..<Int(processor.param_count) {
            guard let params = processor.params else { throw malformed("params is NULL but param_count is \(processor.param_count)") }
            let parameter: ProcessorSchema.Parameter
            do {
                parameter = try CParameterSchema.read(params[index])
            } catch {
                throw malformed(error.reason)
            }
            if parameter.defaultText == nil, schema.contains(where: { $0.defaultText != nil }) {
                throw malformed("required parameter '\(parameter.name)' comes after an optional one; required parameters come first")
            }
            schema.append(parameter)
        }
        let parameters: [ParameterSpec]
        do {
            parameters = try ParameterSpec.parameters(from: schema, processor: name)
        } catch {
            throw malformed(error.message)
        }
        let entry = ExternalProcessorEntry(
            name: name, module: module, flags: processor.flags, userData: processor.user_data,
            outputSize: processor.output_size, process: process)
        var descriptor = ProcessorDescriptor(
            name: name, version: Int(processor.version), summary: Self.string(processor.summary) ?? "", parameters: parameters,
            module: module
        ) { _ in preconditionFailure("replaced below") }
        do {
            descriptor.parameters = try descriptor.checkedParameters()
        } catch {
            throw malformed("default of \(error.argument.map { "'\($0)'" } ?? "a parameter"): \(error.message)")
        }
        let bound = descriptor
        descriptor.make = { arguments in
            let invocation = bound.invocation(arguments)
            return ExternalProcessor(
                entry: entry, arguments: ExternalArguments(invocation.arguments.map(\.value), parameters: bound.parameters),
                invocation: invocation)
        }
        return descriptor
    }

    private func requireSize<T>(_ size: Int, of type: T.Type, _ name: String) throws(Refusal) {
        guard size >= MemoryLayout<T>.size else {
            throw Refusal(reason: "its \(name) has struct_size \(size); ABI version 1 needs at least \(MemoryLayout<T>.size) (set it to sizeof(\(name)))")
        }
    }

    /// A C string the plugin owns, as a Swift string; nil for NULL or invalid UTF-8.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(validatingCString: pointer)
    }
}
