import DarkroomChains
import DarkroomCore

/// An encoded format Darkroom reads or writes: the five built-in ones, or one a plugin module's
/// coder adds (named by the plugin, e.g. `qoi`). A struct rather than an enum so plugins can add
/// formats; the built-in ones are the static members.
public struct ImageFormat: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The format's name: `jpeg`, `png`, `webp`, `gif`, or a plugin format's.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let jpeg = ImageFormat(rawValue: "jpeg")
    public static let png = ImageFormat(rawValue: "png")
    public static let webp = ImageFormat(rawValue: "webp")
    public static let gif = ImageFormat(rawValue: "gif")
    /// AVIF (AV1 in HEIF), told from HEIC by `HEIFBrand`.
    public static let avif = ImageFormat(rawValue: "avif")
    /// HEIC (HEVC in HEIF), the format of phone photos. Darkroom recognises it but decodes it only
    /// with the HEIC coder module loaded (HEVC is patent-encumbered; see docs/plugins.md).
    public static let heic = ImageFormat(rawValue: "heic")

    /// The formats Darkroom's own coders handle.
    public static let builtIn: [ImageFormat] = [.jpeg, .png, .webp, .gif, .avif]

    public var description: String { rawValue }

    /// Whether Darkroom's own coders handle it.
    public var isBuiltIn: Bool { Self.builtIn.contains(self) }

    /// The extension Darkroom writes: `jpg` for JPEG, the name for every other format.
    public var fileExtension: String { OutputFormats.fileExtension(of: rawValue) }

    /// Whether Darkroom's own encoders write it (a plugin format's writability is its coder's:
    /// see `CoderRegistry.writableFormat(named:)`).
    public var isWritable: Bool { self == .jpeg || self == .png || self == .webp || self == .avif }

    /// The built-in format an output file name asks for, from its extension (`.jpg`, `.jpeg`,
    /// `.png`, `.webp`, `.gif`, `.avif`). Only output names are read this way: inputs are always sniffed.
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "gif": self = .gif
        case "avif": self = .avif
        default: return nil
        }
    }

    /// The built-in format named on the command line (`jpeg`, `jpg`, `png`, `webp`, `avif`).
    public init?(name: String) {
        self.init(fileExtension: name)
    }

    /// The format the bytes are in, from their magic numbers; nil when none matches.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        return HEIFBrand.format(of: bytes)
    }
}
