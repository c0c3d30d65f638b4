import DarkroomChains
import DarkroomCore
import DarkroomSystem

/// Decoders and encoders, chosen by sniffing the bytes — never by a file name — as SDWebImage's
/// coder manager does. A PNG saved as `photo.jpg` decodes as the PNG it is.
public struct CoderRegistry: Sendable {
    public private(set) var decoders: [any ImageDecoding]
    public private(set) var encoders: [any ImageEncoding]

    public init(decoders: [any ImageDecoding], encoders: [any ImageEncoding]) {
        self.decoders = decoders
        self.encoders = encoders
    }

    /// The decoder whose magic numbers match, or a typed error saying why there is none.
    public func decoder(for image: EncodedImage) throws(CodecError) -> any ImageDecoding {
        guard !image.bytes.isEmpty else {
            throw CodecError(.empty, source: image.sourceName, "is empty (0 bytes)")
        }
        if let decoder = decoders.first(where: { $0.canDecode(image.bytes) }) {
            return decoder
        }
        if ImageFormat.sniff(image.bytes) == .heic { throw Self.needsHEICModule(image.sourceName) }
        let plugins = decoders.map(\.format).filter { !$0.isBuiltIn }.map { $0.rawValue.uppercased() }
        let known = (["JPEG", "PNG", "WebP", "GIF", "AVIF"] + plugins)
        throw CodecError(.unknownFormat, source: image.sourceName, "is not a \(known.joinedWithOr) image (\(Self.describeStart(image.bytes)))")
    }

    /// Reads the header of whatever format the bytes are in.
    public func readInfo(_ image: EncodedImage, limits: DecodeLimits = DecodeLimits()) throws(CodecError) -> ImageInfo {
        try decoder(for: image).readInfo(image, limits: limits)
    }

    /// Decodes whatever format the bytes are in.
    public func decode(_ image: EncodedImage, options: DecodeOptions = DecodeOptions()) throws(CodecError) -> DecodedImage {
        try decoder(for: image).decode(image, options: options)
    }

    /// The encoder for `format`.
    public func encoder(for format: ImageFormat) throws(CodecError) -> any ImageEncoding {
        guard let encoder = encoders.first(where: { $0.format == format }) else {
            throw CodecError(.unsupported, source: "output", "writing \(format.rawValue) is not supported (write \(writableFormatNames))")
        }
        return encoder
    }

    /// The output format `name` asks for, when an encoder here writes it: a built-in spelling
    /// (`jpeg`, `jpg`, `png`, `webp`, `avif`) or a plugin format's name. Nil otherwise.
    public func writableFormat(named name: String) -> ImageFormat? {
        let format = ImageFormat(name: name) ?? ImageFormat(rawValue: name.lowercased())
        return encoders.contains { $0.format == format } ? format : nil
    }

    /// The names of the formats written here, for messages (`jpeg, png, webp or avif`).
    public var writableFormatNames: String {
        let names = encoders.map(\.format.rawValue)
        return names.joinedWithOr
    }

    /// The names of the formats written here, for a program that checks jobs' formats without
    /// encoders (`FleetClient.formats`).
    public var outputFormats: OutputFormats { OutputFormats(encoders.map(\.format.rawValue)) }

    /// A short, safe description of the first bytes, to help someone see what they fed in.
    static func describeStart(_ bytes: [UInt8]) -> String {
        let head = bytes.prefix(16)
        let printable = head.allSatisfy { (0x20..<0x7F).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if printable {
            let text = String(decoding: head.map { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 ? 0x20 : $0 }, as: UTF8.self)
            return "starts with text \"\(text)\""
        }
        return "starts with bytes " + head.prefix(8).map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: " ")
    }
}

/// `CoderRegistry` decodes `.data` items for processors.
extension CoderRegistry: ImageDecodingService {
    public func decode(_ image: EncodedImage, hint: DecodeHint?) throws -> Bitmap {
        try decode(image, options: DecodeOptions(hint: hint)).bitmap
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
