extension StandardProcessorSpecs {
    /// `roundCorner(radius, corners: all, background: #00000000)`.
    public static let roundCorner = ProcessorSpec(
        name: "roundCorner", version: 1,
        summary: "rounds the corners with an anti-aliased arc; outside them the pixels become the background",
        parameters: [
            ParameterSpec(
                "radius", .positive(upTo: maximumPixels),
                summary: "corner radius in pixels, > 0 (at most half the shorter side is used)"),
            ParameterSpec(
                "corners", .choiceSet(corners), default: .words(corners),
                summary: "which corners to round, joined with +, or all"),
            ParameterSpec("background", .color, default: .color(.clear), summary: "colour of the cut-off corners (transparent by default)"),
        ])

    /// `blur(radius)`.
    public static let blur = ProcessorSpec(
        name: "blur", version: 1,
        summary: "Gaussian blur with a standard deviation of radius pixels (as vips gaussblur)",
        parameters: [ParameterSpec("radius", .positive(upTo: 1000), summary: "the standard deviation in pixels, > 0")])

    /// `tint(#RRGGBBAA)`.
    public static let tint = ProcessorSpec(
        name: "tint", version: 1,
        summary: "composites a colour (at its alpha) over the image where the image is; alpha kept",
        parameters: [ParameterSpec("color", .color, summary: "the tint colour; its alpha is the strength")])

    /// `overlay(#RRGGBB[AA], fraction: 0.5)`.
    public static let overlay = ProcessorSpec(
        name: "overlay", version: 1,
        summary: "covers the image's shape with a colour; fraction is how much of the original shows through",
        parameters: [
            ParameterSpec("color", .color, summary: "the overlay colour"),
            ParameterSpec(
                "fraction", .number(0...1), default: .number(0.5),
                summary: "how much of the original shows through: 0 solid colour, 1 unchanged"),
        ])

    /// `colorControls(brightness: 0, contrast: 1, saturation: 1, exposure: 0)`.
    public static let colorControls = ProcessorSpec(
        name: "colorControls", version: 1,
        summary: "adjusts saturation, contrast, brightness and exposure (CIColorControls + CIExposureAdjust)",
        parameters: [
            ParameterSpec("brightness", .number(-1...1), default: .number(0), summary: "added to every channel, −1…1"),
            ParameterSpec("contrast", .number(0...4), default: .number(1), summary: "scales around mid-grey, 0…4"),
            ParameterSpec("saturation", .number(0...4), default: .number(1), summary: "0 grey, 1 unchanged, up to 4"),
            ParameterSpec("exposure", .number(-10...10), default: .number(0), summary: "EV stops in linear light, −10…10"),
        ])

    /// `blackWhite`.
    public static let blackWhite = ProcessorSpec(
        name: "blackWhite", version: 1, summary: "greyscale by Rec. 709 luma of the sRGB values; alpha kept", parameters: [])

    /// `border(width, #RRGGBB[AA], radius: 0)`.
    public static let border = ProcessorSpec(
        name: "border", version: 1,
        summary: "draws a border of the given width inside the edge; with a radius the outer corners become transparent",
        parameters: [
            ParameterSpec("width", .positive(upTo: maximumPixels), summary: "border width in pixels, > 0, drawn inside the edge"),
            ParameterSpec("color", .color, summary: "border colour, composited over the image"),
            ParameterSpec(
                "radius", .number(0...maximumPixels), default: .number(0),
                summary: "outer corner radius in pixels; > 0 makes the corners outside it transparent"),
        ])

    /// `blend(mode, #RRGGBB[AA])`.
    public static let blend = ProcessorSpec(
        name: "blend", version: 1,
        summary: "blends a colour layer onto the image with a W3C blend mode; alpha kept",
        parameters: [
            ParameterSpec("mode", .choice(blendModes), summary: "the blend mode"),
            ParameterSpec("color", .color, summary: "the layer colour; its alpha is the layer's opacity"),
        ])
}
