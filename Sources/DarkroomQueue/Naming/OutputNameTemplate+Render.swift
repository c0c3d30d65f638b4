/// The values of a template's fields for one job (`OutputNameTemplate.render`).
public struct OutputNameFields: Sendable, Hashable {
    /// The source's base name, or the `id` name when it has none.
    public var stem: String
    /// The job id as a file name (`OutputNaming.fileName(forJobID:)`).
    public var id: String
    /// The batch as a file name (`OutputNaming.fileName(forBatch:)`).
    public var batch: String
    /// `ChainDigest.of(canonicalChain)`.
    public var chain: String
    /// The output format's extension without the dot (`jpg`, `png`, `webp`); nil when not known
    /// yet (a job that keeps its source's format, at enqueue).
    public var ext: String?
    /// The rendition's name (`{name}`); empty for a job without renditions.
    public var name: String

    public init(stem: String, id: String, batch: String, chain: String, ext: String?, name: String = "") {
        self.name = name
        self.stem = stem
        self.id = id
        self.batch = batch
        self.chain = chain
        self.ext = ext
    }

    /// The fields of `job`, its output in a format with extension `ext` (nil: not known yet);
    /// `chainDigest` is `ChainDigest.of(job.chain)` when the caller has it already.
    public init(job: Job, ext: String?, chainDigest: String? = nil) {
        let id = OutputNaming.fileName(forJobID: job.id)
        self.init(
            stem: OutputNaming.baseName(ofSource: job.source) ?? id, id: id,
            batch: OutputNaming.fileName(forBatch: job.batch), chain: chainDigest ?? ChainDigest.of(job.chain), ext: ext)
    }
}

extension OutputNameTemplate {
    /// What `{ext}` becomes in a name rendered without an extension (`OutputNameFields.ext` nil):
    /// NUL, which no file name holds, so such a name never passes for a real one. Enqueue compares
    /// names this way when a job keeps its source's format.
    public static let unknownExtension = "\u{0}"
    /// The bytes an unknown `{ext}` counts for in the length check: the longest standard one
    /// (`webp`). The worker checks the real name again.
    public static let unknownExtensionBytes = 4

    /// The name for `fields`. With `fields.ext` nil, `{ext}` is `unknownExtension`.
    /// - Throws: `OutputNameError` `name.too-long` (over 255 bytes) or `name.hidden` (a leading
    ///   `.`), naming the job's `stem` so the message says which source it was.
    public func render(_ fields: OutputNameFields) throws(OutputNameError) -> String {
        var name = ""
        var bytes = 0
        for piece in pieces {
            let value: String
            switch piece {
            case .literal(let text): value = text
            case .field(.stem): value = fields.stem
            case .field(.id): value = fields.id
            case .field(.batch): value = fields.batch
            case .field(.chain): value = fields.chain
            case .field(.ext): value = fields.ext ?? Self.unknownExtension
            case .field(.name): value = fields.name
            }
            if case .field(.ext) = piece, fields.ext == nil {
                bytes += Self.unknownExtensionBytes
            } else {
                bytes += value.utf8.count
            }
            name += value
        }
        // An unknown extension is shown as the field it stands for.
        let shown = Self.shown(name.split(separator: "\u{0}", omittingEmptySubsequences: false).joined(separator: "{ext}"))
        guard bytes <= Self.maxNameBytes else {
            throw OutputNameError(.tooLong, "output name '\(shown)' from template '\(Self.shown(text))' is longer than \(Self.maxNameBytes) bytes")
        }
        guard !name.hasPrefix(".") else {
            throw OutputNameError(.hidden, "output name '\(shown)' from template '\(Self.shown(text))' starts with '.'")
        }
        return name
    }
}
