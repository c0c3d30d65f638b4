/// The output formats a job may ask for, by name: what a program that submits jobs checks
/// `--format` and a job line's `"format"` against, without linking an encoder.
///
/// `standard` is what Darkroom's own encoders write (`CoderRegistry.standard` in `DarkroomCodecs`
/// writes exactly these; a test holds the two together). A program that loads plugin modules
/// adds their formats' names (`CoderRegistry.outputFormats`).
public struct OutputFormats: Sendable, Hashable {
    /// The canonical names, lower-case, in the order messages list them.
    public private(set) var names: [String]

    /// Other spellings of the built-in formats, as file extensions write them.
    public static let aliases: [String: String] = ["jpg": "jpeg", "jpe": "jpeg"]

    /// JPEG, PNG, WebP and AVIF: what the standard encoders write (GIF is read, never written).
    public static let standard = OutputFormats(["jpeg", "png", "webp", "avif"])

    /// Formats named `names` (lower-cased; a repeated name is kept once).
    public init(_ names: [String]) {
        var seen: Set<String> = []
        self.names = names.map { $0.lowercased() }.filter { seen.insert($0).inserted }
    }

    /// The extension an output in format `name` (a canonical name) is written with: `jpg` for
    /// JPEG, the name itself for every other format. One rule for the worker, which names the
    /// file, and for enqueue, which compares the names jobs will get.
    public static func fileExtension(of name: String) -> String {
        name == "jpeg" ? "jpg" : name
    }

    /// The name a job stores for `name` — lower-cased, an alias resolved (`JPG` → `jpeg`) — or nil
    /// when it is not one of these formats.
    public func canonicalName(_ name: String) -> String? {
        let lowered = name.lowercased()
        let resolved = Self.aliases[lowered] ?? lowered
        return names.contains(resolved) ? resolved : nil
    }
}
