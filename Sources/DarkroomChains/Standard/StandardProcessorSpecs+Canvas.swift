extension StandardProcessorSpecs {
    /// `trim`'s default `color`: the top-left pixel's colour, read from the image.
    public static let trimCornerColor = "corner"

    /// `trim(threshold: 10, color: corner)`.
    public static let trim = ProcessorSpec(
        name: "trim", version: 1,
        summary: "removes a uniform border; an all-border image is unchanged",
        parameters: [
            ParameterSpec(
                "threshold", .number(0...255), default: .number(10),
                summary: "largest channel difference from the border colour that is still border"),
            ParameterSpec(
                "color", .color, default: .word(trimCornerColor),
                summary: "the border colour, or corner: the top-left pixel's"),
        ])

    /// `extend(WxH, anchor: center, color: #00000000)` or `extend(aspect: W:H, …)`: exactly one of
    /// `size` and `aspect`. Both are optional parameters without defaults, so `extend(WxH)` keeps
    /// the canonical text it had before `aspect` existed.
    public static let extend = ProcessorSpec(
        name: "extend", version: 1,
        summary: "grows the canvas to WxH, or to an aspect ratio W:H, around the image; never shrinks",
        parameters: [
            .optional(
                "size", .box,
                summary: "the canvas, WxH, Wx or xH; a larger side of the image stays (or give aspect)"),
            ParameterSpec("anchor", .anchor, default: .point(.center), summary: "where the image lies: " + anchorSummary),
            ParameterSpec("color", .color, default: .color(.clear), summary: "colour of the added area"),
            .optional(
                "aspect", .ratio,
                summary: "instead of size: the smallest canvas of this ratio W:H that holds the image, the grown side rounded up"),
        ],
        check: { arguments throws(ChainError) in
            switch (arguments.has("size"), arguments.has("aspect")) {
            case (true, true):
                throw arguments.invalid("aspect", "and size exclude each other: give the canvas size or its aspect ratio, not both")
            case (false, false):
                throw ChainError(
                    code: .missingArgument, processor: "extend", argument: "size",
                    column: arguments.processorColumn, message: "missing size (a size WxH, a width Wx or a height xH) or aspect (a ratio W:H)")
            default: return
            }
        })

    /// `pixelate(size)`.
    public static let pixelate = ProcessorSpec(
        name: "pixelate", version: 1,
        summary: "fills each size×size block with its mean colour",
        parameters: [ParameterSpec("size", .integer(1...4096), summary: "the block side in pixels")])
}
