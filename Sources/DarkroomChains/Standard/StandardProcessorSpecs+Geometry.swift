extension StandardProcessorSpecs {
    /// `downsample(WxH)`: fit inside a box, never enlarge.
    public static let downsample = ProcessorSpec(
        name: "downsample", version: 1,
        summary: "fit inside a WxH box keeping the aspect ratio, shrinking on load; never enlarges",
        parameters: [ParameterSpec("size", .size, summary: "the box the image must fit inside, WxH")])

    /// `resize(WxH, mode: fit, anchor: center)`.
    public static let resize = ProcessorSpec(
        name: "resize", version: 1,
        summary: "scale to a WxH box: fit inside, fill and crop, or stretch; may enlarge",
        parameters: [
            ParameterSpec("size", .size, summary: "the target box, WxH"),
            ParameterSpec(
                "mode", .choice(resizeModes), default: .word("fit"),
                summary: "fit (inside the box), fill (cover, then crop to the box) or stretch (ignore the aspect ratio)"),
            ParameterSpec("anchor", .anchor, default: .point(.center), summary: "for fill: which part is kept, " + anchorSummary),
        ])

    /// `crop(WxH, anchor: center)`.
    public static let crop = ProcessorSpec(
        name: "crop", version: 1,
        summary: "cut out a WxH rectangle placed by an anchor; no resampling",
        parameters: [
            ParameterSpec("size", .size, summary: "the rectangle, WxH; an axis larger than the image keeps the image's size"),
            ParameterSpec("anchor", .anchor, default: .point(.center), summary: "which part is kept: " + anchorSummary),
        ])

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
