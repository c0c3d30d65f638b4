import CDarkroomPlugin
import DarkroomChains
import DarkroomCore
import Glibc

/// A processor from a plugin's C descriptor: the callbacks and the flags, shared by every
/// processor made from it.
///
/// `@unchecked Sendable` is sound because of the ABI's rules (darkroom_plugin.h): the descriptor
/// and its `user_data` stay valid and unchanged until the process exits (a plugin is never
/// unloaded), and every callback must be safe to call from several threads at once. Nothing here
/// is mutated after `init`.
struct ExternalProcessorEntry: @unchecked Sendable {
    let name: String
    let module: PluginModuleIdentity
    let flags: UInt32
    let userData: UnsafeMutableRawPointer?
    let outputSize:
        (
            @convention(c) (
                UnsafePointer<darkroom_value>?, UInt32, UInt32, UInt32, UnsafeMutablePointer<UInt32>?,
                UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<darkroom_error>?
            ) -> darkroom_status
        )?
    let process:
        @convention(c) (
            UnsafePointer<darkroom_value>?, UInt32, UnsafePointer<darkroom_bitmap>?, UnsafeMutablePointer<darkroom_bitmap>?,
            UnsafeMutableRawPointer?, UnsafeMutablePointer<darkroom_error>?
        ) -> darkroom_status

    /// How failures name it: `processor 'invert' (example-c 1.0.0)`.
    var subject: String { "processor '\(name)' (\(module))" }
}

/// The arguments of one bound plugin processor as the C callbacks take them: one
/// `darkroom_value` per parameter in declared order, with the words' C strings beside them.
/// Made once when the chain is bound, so a call allocates nothing for its arguments.
///
/// `@unchecked Sendable`: the buffers are written only in `init` and read (never written) by the
/// callbacks, which receive them as `const`; they are freed in `deinit`, after the last user.
final class ExternalArguments: @unchecked Sendable {
    let values: UnsafeMutableBufferPointer<darkroom_value>
    private let words: [UnsafeMutablePointer<CChar>]

    /// `arguments` in the order of `parameters`, whose kinds say which C kind each value has (an
    /// integer parameter's value is a number in Swift, `DARKROOM_KIND_INTEGER` in C).
    init(_ arguments: [ArgumentValue], parameters: [ParameterSpec]) {
        values = .allocate(capacity: max(1, arguments.count))
        var words: [UnsafeMutablePointer<CChar>] = []
        for (index, argument) in arguments.enumerated() {
            var value = darkroom_value()
            switch argument {
            case .number(let number):
                if case .integer = parameters[index].kind {
                    value.kind = DARKROOM_KIND_INTEGER
                } else {
                    value.kind = DARKROOM_KIND_NUMBER
                }
                value.number = number
            case .size(let size):
                value.kind = DARKROOM_KIND_SIZE
                value.width = UInt32(size.width)
                value.height = UInt32(size.height)
            case .color(let color):
                value.kind = DARKROOM_KIND_COLOR
                value.rgba = (color.red, color.green, color.blue, color.alpha)
            case .word(let word):
                value.kind = DARKROOM_KIND_CHOICE
                let copy = strdup(word)!
                words.append(copy)
                value.word = UnsafePointer(copy)
            case .words, .point, .oneSidedBox, .pair, .ratio, .text:
                // The C schema has no kinds for these; `CParameterSchema` never makes such a parameter.
                preconditionFailure("a C plugin parameter cannot hold \(argument.kindName)")
            }
            values[index] = value
        }
        self.words = words
        count = UInt32(arguments.count)
    }

    let count: UInt32

    deinit {
        values.deallocate()
        for word in words { free(word) }
    }
}

/// A chain step run by a plugin's `process` callback: the host sizes and allocates the output
/// (checked against the image's limits first), the plugin fills it.
struct ExternalProcessor: ImageProcessing {
    let entry: ExternalProcessorEntry
    let arguments: ExternalArguments
    let invocation: ProcessorInvocation

    var hashableIdentifier: AnyHashable { AnyHashable(invocation) }
    var introducesTransparency: Bool { entry.flags & DARKROOM_PROCESSOR_INTRODUCES_TRANSPARENCY != 0 }

    func process(_ bitmap: Bitmap) throws -> Bitmap {
        var error = darkroom_error()
        let arguments = self.arguments
        var width = UInt32(bitmap.width)
        var height = UInt32(bitmap.height)
        if let outputSize = entry.outputSize {
            error = darkroom_error()
            let status = outputSize(arguments.values.baseAddress, arguments.count, width, height, &width, &height, entry.userData, &error)
            guard status == DARKROOM_OK else { throw PluginFailure.from(status: status, error: &error, subject: entry.subject) }
            guard (1...UInt32(Bitmap.maximumDimension)).contains(width), (1...UInt32(Bitmap.maximumDimension)).contains(height) else {
                throw PluginFailure(
                    subject: entry.subject,
                    message: "output_size gave \(width)x\(height); each side must be 1…\(Bitmap.maximumDimension)")
            }
        }
        // The output is checked against the limits the image was decoded under before it exists,
        // and starts transparent black: a plugin that leaves pixels unwritten must not put
        // whatever the heap held before (another job's pixels) into a result.
        var output = try Bitmap(width: Int(width), height: Int(height), fill: .clear, limits: bitmap.limits)
        let bytesPerRow = output.bytesPerRow
        error = darkroom_error()
        let (status, isOpaque) = bitmap.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { buffer in
                var source = darkroom_bitmap(
                    pixels: UnsafeMutablePointer(mutating: input.baseAddress), width: UInt32(bitmap.width),
                    height: UInt32(bitmap.height), stride: bitmap.bytesPerRow, is_opaque: bitmap.isOpaque ? 1 : 0)
                var target = darkroom_bitmap(pixels: buffer.baseAddress, width: width, height: height, stride: bytesPerRow, is_opaque: 0)
                let status = entry.process(arguments.values.baseAddress, arguments.count, &source, &target, entry.userData, &error)
                return (status, target.is_opaque != 0)
            }
        }
        guard status == DARKROOM_OK else { throw PluginFailure.from(status: status, error: &error, subject: entry.subject) }
        output.isOpaque = isOpaque
        return output
    }
}
