/// A processor written in Swift: a chain step of a plugin module, in the style of Darkroom's own
/// `ImageProcessing` (a name, an algorithm version, declared parameters, a pixel kernel), but
/// spoken to the host only through the C ABI (`darkroom_plugin.h`).
///
/// Every requirement is static: a processor is a type, never an instance, so it holds no state
/// and the host may call it from several threads at once (the ABI's rule) without any locking.
/// Arguments arrive with each call.
///
/// ```swift
/// enum Sepia: PluginProcessor {
///     static let name = "sepia"
///     static let version = 1
///     static let parameters: [PluginParameter] = [.number("amount", in: 0...1, default: 1)]
///     static func process(input: PluginBitmap, output: inout PluginBitmap, arguments: PluginArguments) throws { … }
/// }
/// ```
public protocol PluginProcessor: Sendable {
    /// The name used in chains: letters, digits and `_`, starting with a letter; it must not
    /// clash with a built-in processor or another module's.
    static var name: String { get }
    /// The algorithm version (1 or more). Raise it whenever the output for the same input
    /// changes: it is part of the identifier, so results cached by the old algorithm are not reused.
    static var version: Int { get }
    /// One line for `darkroom plugins`. Default: empty.
    static var summary: String { get }
    /// The parameters in positional order, required ones first. Default: none.
    static var parameters: [PluginParameter] { get }
    /// True when the processor may make transparent pixels out of an opaque image (the host then
    /// stores a JPEG source's result as PNG). Default: false.
    static var introducesTransparency: Bool { get }

    /// The size of the output for an input of `input` (each side 1…65535; the host checks it
    /// against its limits before it allocates the output). Default: the input's size.
    static func outputSize(for input: PluginSize, arguments: PluginArguments) throws -> PluginSize

    /// Reads `input` and writes every pixel of `output` (premultiplied RGBA8, host-allocated at
    /// the size `outputSize` gave). Set `output.isOpaque` when the output is opaque. A thrown
    /// error fails the job with its description: `PluginTransientError` as a transient failure
    /// (retried with backoff), anything else permanently.
    static func process(input: PluginBitmap, output: inout PluginBitmap, arguments: PluginArguments) throws
}

extension PluginProcessor {
    public static var summary: String { "" }
    public static var parameters: [PluginParameter] { [] }
    public static var introducesTransparency: Bool { false }

    public static func outputSize(for input: PluginSize, arguments: PluginArguments) throws -> PluginSize { input }
}

/// Thrown by a processor for a failure that may pass (a busy resource, a timeout): the host
/// retries the job with backoff (`DARKROOM_FAILED_TRANSIENT`). Every other error fails the job
/// permanently (`DARKROOM_FAILED`).
public struct PluginTransientError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
