import CDarkroomPlugin
@_spi(Fuzzing) import DarkroomPlugins

/// A plugin's C descriptor, as the loader reads it after `dlopen`: module name and version,
/// processors with their parameter schemas (kinds, ranges, choices, defaults), providers and
/// coders, each field chosen by the input (valid, wrong, NULL, not UTF-8, a short `struct_size`).
/// The descriptor keeps the ABI's memory contract (every array as long as its count says, every
/// string terminated), which a plugin that broke it would break in any host. The reading must end
/// in a module or a refusal with a reason; a module must carry exactly the names and parameter
/// counts the descriptor gave.
enum PluginDescriptorFuzz {
    static let target = FuzzTarget(
        name: "plugin",
        summary: "plugin C descriptors (names, schemas, ranges, choices, defaults, sizes): a module as declared, or a refusal"
    ) { bytes in
        var input = FuzzInput(bytes)
        let arena = DescriptorArena()
        defer { arena.release() }
        let described = arena.plugin(&input)
        switch PluginDescriptorCheck.read(described.pointer) {
        case .success(let module):
            let names = module.processors.map(\.name)
            let counts = module.processors.map(\.parameters.count)
            if module.identity.name != described.name || names != described.processorNames || counts != described.parameterCounts {
                FuzzFailure.stop(
                    "plugin",
                    "read module \(module.identity.name) with processors \(names) (parameters \(counts)) from a descriptor naming \(String(describing: described.name)), \(described.processorNames) (\(described.parameterCounts))"
                )
            }
        case .failure(let refusal):
            if refusal.reason.isEmpty { FuzzFailure.stop("plugin", "a refusal without a reason") }
        }
    }
}

/// Builds descriptors in memory it frees all at once.
private final class DescriptorArena {
    private var allocations: [UnsafeMutableRawPointer] = []

    struct Described {
        let pointer: UnsafePointer<darkroom_plugin>
        let name: String?
        let processorNames: [String]
        let parameterCounts: [Int]
    }

    func release() { for allocation in allocations { allocation.deallocate() } }

    private func array<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(values.count, 1))
        pointer.initialize(from: values, count: values.count)
        allocations.append(UnsafeMutableRawPointer(pointer))
        return pointer
    }

    private static let words = [
        "sepia", "amount", "mode", "x1", "a_b", "Tint", "jpeg", "webp", "acme", "s3+x", "heic", "fast", "slow", "1.0.0",
        "0.5", "10x10", "#ff0000", "auto", "", "0abc", "bad name", "a-b", "é", "z",
    ]

    /// A C string: NULL, a word from the list, bytes of the input, or bytes that are not UTF-8.
    private func string(_ input: inout FuzzInput) -> (UnsafePointer<CChar>?, String?) {
        let bytes: [UInt8]
        switch input.choice(8) {
        case 0: return (nil, nil)
        case 1: bytes = (0..<input.choice(12)).map { _ in max(input.byte(), 1) }
        case 2: bytes = [0x61, 0xFF, 0xFE]
        default: bytes = Array(Self.words[input.choice(Self.words.count)].utf8)
        }
        let pointer = array(bytes.map { CChar(bitPattern: $0) } + [0])
        return (UnsafePointer(pointer), String(validating: bytes, as: UTF8.self))
    }

    /// `MemoryLayout<T>.size`, or now and then less.
    private func structSize<T>(_ type: T.Type, _ input: inout FuzzInput) -> UInt32 {
        input.choice(16) == 0 ? UInt32(input.choice(MemoryLayout<T>.size)) : UInt32(MemoryLayout<T>.size)
    }

    private func number(_ input: inout FuzzInput) -> Double {
        let specials: [Double] = [0, 1, -1, 0.5, 2, 100, 255, 1e15, 1e16, -1e16, .nan, .infinity, -.infinity]
        if input.choice(4) == 0 {
            return Double(bitPattern: input.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        return specials[input.choice(specials.count)]
    }

    private func parameter(_ input: inout FuzzInput) -> darkroom_param {
        var param = darkroom_param()
        param.name = string(&input).0
        param.kind = UInt32(input.choice(7))
        param.min = number(&input)
        param.max = number(&input)
        let choiceCount = input.choice(4)
        if input.choice(8) != 0 {
            param.choices = UnsafePointer(array((0..<choiceCount).map { _ in string(&input).0 }))
            param.choice_count = UInt32(choiceCount)
        } else {
            param.choice_count = UInt32(input.choice(300))
        }
        param.default_value = input.choice(2) == 0 ? nil : string(&input).0
        param.summary = string(&input).0
        return param
    }

    private func processor(_ input: inout FuzzInput) -> (UnsafePointer<darkroom_processor>, String?, Int) {
        var processor = darkroom_processor()
        processor.struct_size = structSize(darkroom_processor.self, &input)
        let (name, text) = string(&input)
        processor.name = name
        processor.version = UInt32(input.choice(3))
        processor.summary = string(&input).0
        let count = input.choice(16) == 0 ? 60 + input.choice(10) : input.choice(4)
        if input.choice(8) != 0 {
            processor.params = UnsafePointer(array((0..<count).map { _ in parameter(&input) }))
        }
        processor.param_count = UInt32(count)
        processor.flags = UInt32(input.choice(3))
        if input.choice(8) != 0 { processor.process = { _, _, _, _, _, _ in 1 } }
        if input.choice(2) == 0 { processor.output_size = { _, _, _, _, _, _, _, _ in 1 } }
        return (UnsafePointer(array([processor])), text, count)
    }

    private func provider(_ input: inout FuzzInput) -> UnsafePointer<darkroom_provider> {
        var provider = darkroom_provider()
        provider.struct_size = structSize(darkroom_provider.self, &input)
        provider.scheme = string(&input).0
        if input.choice(8) != 0 { provider.fetch = { _, _, _, _ in 1 } }
        return UnsafePointer(array([provider]))
    }

    private func coder(_ input: inout FuzzInput) -> UnsafePointer<darkroom_coder> {
        var coder = darkroom_coder()
        coder.struct_size = structSize(darkroom_coder.self, &input)
        coder.format = string(&input).0
        if input.choice(4) != 0 { coder.sniff = { _, _, _ in 0 } }
        if input.choice(4) != 0 { coder.read_info = { _, _, _, _, _ in 1 } }
        if input.choice(2) == 0 { coder.decode = { _, _, _, _, _ in 1 } }
        if input.choice(2) == 0 { coder.encode = { _, _, _, _, _ in 1 } }
        if input.choice(4) == 0 { coder.decode_ex = { _, _, _, _, _, _ in 1 } }
        return UnsafePointer(array([coder]))
    }

    /// A list of `count` entries (some NULL), or NULL itself.
    private func list<T>(_ count: Int, _ input: inout FuzzInput, _ make: (inout FuzzInput) -> UnsafePointer<T>) -> UnsafePointer<UnsafePointer<T>?>? {
        guard input.choice(8) != 0 else { return nil }
        return UnsafePointer(array((0..<count).map { _ in input.choice(16) == 0 ? nil : make(&input) }))
    }

    func plugin(_ input: inout FuzzInput) -> Described {
        var plugin = darkroom_plugin()
        plugin.struct_size = structSize(darkroom_plugin.self, &input)
        plugin.abi_version = input.choice(16) == 0 ? UInt32(input.byte()) : DARKROOM_PLUGIN_ABI_VERSION
        let (name, nameText) = string(&input)
        plugin.name = name
        plugin.version = string(&input).0

        var processorNames: [String] = []
        var parameterCounts: [Int] = []
        let processorCount = input.choice(4)
        plugin.processors = list(processorCount, &input) { input in
            let (pointer, text, count) = processor(&input)
            processorNames.append(text ?? "")
            parameterCounts.append(count)
            return pointer
        }
        plugin.processor_count = UInt32(processorCount)
        let providerCount = input.choice(3)
        plugin.providers = list(providerCount, &input, provider)
        plugin.provider_count = UInt32(providerCount)
        let coderCount = input.choice(3)
        plugin.coders = list(coderCount, &input, coder)
        plugin.coder_count = UInt32(coderCount)
        return Described(
            pointer: UnsafePointer(array([plugin])), name: nameText, processorNames: processorNames, parameterCounts: parameterCounts)
    }
}
