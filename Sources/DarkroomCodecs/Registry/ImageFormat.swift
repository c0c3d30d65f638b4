import DarkroomCore

/// The encoded formats Darkroom reads and writes.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, webp, gif

    /// The extension Darkroom writes (`jpg`, `png`, `webp`, `gif`).
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .webp: return "webp"
        case .gif: return "gif"
        }
    }

    /// Whether Darkroom can write this format.
    public var isWritable: Bool { self != .gif }

    /// The format an output file name asks for, from its extension (`.jpg`, `.jpeg`, `.png`, `.webp`).
    /// Only output names are read this way: inputs are always sniffed.
    public init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "gif": self = .gif
        default: return nil
        }
    }

    /// The format named on the command line (`jpeg`, `jpg`, `png`, `webp`).
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
        return nil
    }
}
