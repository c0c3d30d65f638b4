/// What a job keeps of its source besides the pixels (`keep`), by default nothing: the output is
/// turned upright, converted to sRGB and written without metadata.
///
/// - `icc`: the source's RGB ICC profile is kept and embedded instead of converting to sRGB.
/// - `exif`: the source's EXIF, rewritten (`EXIFRewriter`): orientation 1, no thumbnail, no
///   MakerNote, no GPS.
/// - `xmp`: the source's XMP packet, without its `exif:GPS…` properties (`XMPRewriter`).
/// - `copyright`: a minimal EXIF holding only the source EXIF's Copyright and Artist.
/// - `gps`: with `exif` or `xmp`, their GPS data is kept too. Alone it is refused.
public struct MetadataKeep: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let icc = MetadataKeep(rawValue: 1 << 0)
    public static let exif = MetadataKeep(rawValue: 1 << 1)
    public static let xmp = MetadataKeep(rawValue: 1 << 2)
    public static let copyright = MetadataKeep(rawValue: 1 << 3)
    public static let gps = MetadataKeep(rawValue: 1 << 4)

    /// Every name, in canonical (sorted) order.
    public static let names: [(name: String, item: MetadataKeep)] = [
        ("copyright", .copyright), ("exif", .exif), ("gps", .gps), ("icc", .icc), ("xmp", .xmp),
    ]

    /// The names of the items in this set, sorted: the canonical list a job record carries.
    public var canonicalNames: [String] {
        Self.names.filter { contains($0.item) }.map(\.name)
    }

    /// The set `names` spell, or why they do not: an unknown name, or `gps` without `exif` or
    /// `xmp`. Duplicates are allowed (the set ignores them).
    public static func parse<S: Sequence<String>>(_ names: S) -> Result<MetadataKeep, KeepError> {
        var keep: MetadataKeep = []
        for name in names {
            guard let item = Self.names.first(where: { $0.name == name })?.item else {
                return .failure(KeepError(message: "'keep' has '\(name)'; the items are copyright, exif, gps, icc, xmp"))
            }
            keep.insert(item)
        }
        if keep.contains(.gps) && keep.isDisjoint(with: [.exif, .xmp]) {
            return .failure(KeepError(message: "'keep' has gps without exif or xmp, which carry it"))
        }
        return .success(keep)
    }

    /// Parses a comma-separated list, as the CLI's `--keep icc,exif` takes it.
    public static func parse(commaSeparated text: String) -> Result<MetadataKeep, KeepError> {
        parse(text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
    }

    /// True when the decoder must collect the source's EXIF (a plugin coder is asked for it).
    public var needsEXIF: Bool { !isDisjoint(with: [.exif, .copyright]) }
}

/// A `keep` list that cannot be honoured.
public struct KeepError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
