extension StandardProcessorSpecs {
    /// The longest watermark source text: a URL, a path or an `s3://` address, not a `data:` URI
    /// of any size (a logo that large belongs behind a URL, where it is cached once).
    public static let watermarkSourceMaxLength = 2048

    /// `watermark("SOURCE", version: 1, anchor: bottomRight, margin: 16, scale: 0.2, opacity: 1,
    /// tile: false)`.
    ///
    /// The source is fetched before the chain runs, through the same providers, source policy,
    /// limits and originals cache as a job's source; `version` is part of that original's cache
    /// key (and, as every argument, of the result's), so a logo replaced at the same address is
    /// picked up by bumping it.
    public static let watermark = ProcessorSpec(
        name: "watermark", version: 1,
        summary: "draws an image over the output",
        parameters: [
            ParameterSpec(
                "source", .text(maxLength: watermarkSourceMaxLength),
                summary: "the image, quoted: a path, URL or data: URI"),
            ParameterSpec(
                "version", .integer(1...1_000_000), default: .number(1),
                summary: "bump to fetch an image replaced at the same address"),
            ParameterSpec("anchor", .anchor, default: .point(.bottomRight), summary: "where it lies"),
            ParameterSpec(
                "margin", .integer(0...4096), default: .number(16),
                summary: "pixels from the edges; between tiles"),
            ParameterSpec(
                "scale", .positive(upTo: 1), default: .number(0.2),
                summary: "its width over the output's"),
            ParameterSpec("opacity", .number(0...1), default: .number(1), summary: "multiplies its alpha"),
            ParameterSpec(
                "tile", .choice(booleanWords), default: .word("false"),
                summary: "repeat it, at most 10000 times"),
        ])

    /// How a yes/no parameter is spelled.
    public static let booleanWords = ["false", "true"]
}
