extension StandardProcessorSpecs {
    /// `downsample(WxH)`, `downsample(400x)`, `downsample(x300)`: fit inside a box, never enlarge.
    public static let downsample = ProcessorSpec(
        name: "downsample", version: 1,
        summary: "fit inside a WxH box keeping the aspect ratio, shrinking on load; never enlarges",
        parameters: [
            ParameterSpec("size", .box, summary: "the box the image must fit inside, WxH, or a width Wx or a height xH alone")
        ])

    /// `resize(WxH, mode: fit, anchor: center)`; a width or height alone with `fit` or `stretch`;
    /// `focus: x,y` with `fill`.
    public static let resize = ProcessorSpec(
        name: "resize", version: 1,
        summary: "scale to a WxH box: fit inside, fill and crop, or stretch; may enlarge",
        parameters: [
            ParameterSpec(
                "size", .box,
                summary: "the target box, WxH; a width Wx or a height xH alone with fit (the other side keeps the aspect ratio) "
                    + "or stretch (the other side stays)"),
            ParameterSpec(
                "mode", .choice(resizeModes), default: .word("fit"),
                summary: "fit (inside the box), fill (cover, then crop to the box) or stretch (ignore the aspect ratio)"),
            ParameterSpec("anchor", .anchor, default: .point(.center), summary: "for fill: which part is kept, " + anchorSummary),
            .optional("focus", .point, summary: "for fill: " + focusSummary),
        ],
        check: { arguments throws(ChainError) in
            if arguments.has("focus"), arguments.word("mode") != "fill" {
                throw arguments.invalid(
                    "focus", "needs mode: fill (got mode: \(arguments.word("mode"))); only fill crops, so only fill has a window to place",
                    suggestion: "fill")
            }
            // fill crops the covering size to the box: with a free side there is nothing to crop to.
            let size = arguments.box("size")
            guard size.isOneSided, arguments.word("mode") == "fill" else { return }
            let side = size.width == 0 ? "that height" : "that width"
            throw arguments.invalid(
                "mode", "fill needs both sides of the box (got \(size.boxText)); fit scales to \(side) keeping the aspect ratio",
                suggestion: "fit")
        })

    /// `crop(WxH, anchor: center)`, `crop(WxH, focus: x,y)`.
    public static let crop = ProcessorSpec(
        name: "crop", version: 1,
        summary: "cut out a WxH rectangle placed by an anchor; no resampling",
        parameters: [
            ParameterSpec(
                "size", .box,
                summary: "the rectangle, WxH; an axis larger than the image, or left out (Wx, xH), keeps the image's size"),
            ParameterSpec("anchor", .anchor, default: .point(.center), summary: "which part is kept: " + anchorSummary),
            .optional("focus", .point, summary: focusSummary),
        ])

    /// How `crop` and `resize` describe their focal point.
    static let focusSummary =
        "a focal point x,y in 0…1 that the window is centred on, clamped to the image; replaces the anchor"

    /// `rotate(degrees, background: #00000000)`.
    public static let rotate = ProcessorSpec(
        name: "rotate", version: 1,
        summary: "turn clockwise by any angle; the canvas grows, uncovered corners get the background",
        parameters: [
            ParameterSpec("degrees", .number(-3600...3600), summary: "the angle, clockwise; multiples of 90 are exact"),
            ParameterSpec(
                "background", .color, default: .color(.clear),
                summary: "colour of the uncovered corners, #RRGGBB or #RRGGBBAA"),
        ])

    /// `flip(horizontal|vertical)`.
    public static let flip = ProcessorSpec(
        name: "flip", version: 1,
        summary: "mirror left-right (horizontal) or top-bottom (vertical)",
        parameters: [
            ParameterSpec(
                "direction", .choice(flipDirections),
                summary: "horizontal (swap left and right) or vertical (swap top and bottom)")
        ])
}
