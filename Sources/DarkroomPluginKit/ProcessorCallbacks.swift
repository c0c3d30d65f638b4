import CDarkroomPlugin

/// What a processor's `user_data` points at: the Swift type its C callbacks dispatch to.
///
/// Plainly `Sendable` (checked by the compiler): constants only, a metatype and values.
final class ProcessorBinding: Sendable {
    let processor: any PluginProcessor.Type
    let parameters: [PluginParameter]

    init(processor: any PluginProcessor.Type, parameters: [PluginParameter]) {
        self.processor = processor
        self.parameters = parameters
    }

    /// A pointer for `user_data`, retained once and never released: the binding lives as long
    /// as the descriptor that points to it (see `PermanentStorage`).
    func permanentPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    static func from(_ userData: UnsafeMutableRawPointer) -> ProcessorBinding {
        Unmanaged<ProcessorBinding>.fromOpaque(userData).takeUnretainedValue()
    }
}

/// The bodies of the `@convention(c)` callbacks every Swift processor shares.
///
/// Thread safety: the host calls them from several threads at once. They read only the immutable
/// binding and the host's per-call buffers, and write only the per-call outputs (the output
/// bitmap, the sizes, the error buffer), so there is no shared mutable state to protect. No Swift
/// error crosses the ABI: each becomes a status and a message.
enum ProcessorCallbacks {
    static func outputSize(
        _ values: UnsafePointer<darkroom_value>?, _ count: UInt32, _ width: UInt32, _ height: UInt32,
        _ outputWidth: UnsafeMutablePointer<UInt32>?, _ outputHeight: UnsafeMutablePointer<UInt32>?,
        _ userData: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<darkroom_error>?
    ) -> darkroom_status {
        report(into: error) {
            guard let userData, let outputWidth, let outputHeight else { throw HostMistake.missing("output_size") }
            let binding = ProcessorBinding.from(userData)
            let arguments = try PluginArguments(values, count: count, parameters: binding.parameters)
            let size = try binding.processor.outputSize(for: PluginSize(width: Int(width), height: Int(height)), arguments: arguments)
            // Out-of-range sides are clamped, never trapped on; the host refuses 0 and > 65535.
            outputWidth.pointee = UInt32(clamping: size.width)
            outputHeight.pointee = UInt32(clamping: size.height)
        }
    }

    static func process(
        _ values: UnsafePointer<darkroom_value>?, _ count: UInt32, _ input: UnsafePointer<darkroom_bitmap>?,
        _ output: UnsafeMutablePointer<darkroom_bitmap>?, _ userData: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<darkroom_error>?
    ) -> darkroom_status {
        report(into: error) {
            guard let userData, let input, let output else { throw HostMistake.missing("process") }
            guard let source = PluginBitmap(input.pointee), var target = PluginBitmap(output.pointee) else { throw HostMistake.bitmap }
            let binding = ProcessorBinding.from(userData)
            let arguments = try PluginArguments(values, count: count, parameters: binding.parameters)
            try binding.processor.process(input: source, output: &target, arguments: arguments)
            output.pointee.is_opaque = target.isOpaque ? 1 : 0
        }
    }

    /// Runs `body`; a thrown error becomes DARKROOM_FAILED_TRANSIENT (`PluginTransientError`) or
    /// DARKROOM_FAILED (anything else) with its description in `error`.
    static func report(into error: UnsafeMutablePointer<darkroom_error>?, _ body: () throws -> Void) -> darkroom_status {
        do {
            try body()
            return DARKROOM_OK
        } catch let failure {
            if let error { write(String(describing: failure), into: error) }
            return failure is PluginTransientError ? DARKROOM_FAILED_TRANSIENT : DARKROOM_FAILED
        }
    }

    /// Writes `message` NUL-terminated into the host's buffer, cut at a character boundary to fit.
    static func write(_ message: String, into error: UnsafeMutablePointer<darkroom_error>) {
        withUnsafeMutableBytes(of: &error.pointee.message) { buffer in
            var count = 0
            for scalar in message.unicodeScalars {
                let bytes = scalar.utf8
                guard count + bytes.count < buffer.count else { break }
                for byte in bytes {
                    buffer[count] = byte
                    count += 1
                }
            }
            buffer[count] = 0
        }
    }
}

/// The host broke the ABI's promises (a NULL pointer, a bitmap without pixels).
private enum HostMistake: Error, CustomStringConvertible {
    case missing(String)
    case bitmap

    var description: String {
        switch self {
        case .missing(let callback): return "the host called \(callback) with a NULL pointer"
        case .bitmap: return "the host passed a bitmap without pixels or with a stride shorter than its width"
        }
    }
}
