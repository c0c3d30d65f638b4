/// The 18 standard processors as the chain syntax knows them — names, versions, parameters,
/// summaries — without their pixel code, which `Plugins/StandardProcessors` attaches
/// (`ImageProcessors.Blur.descriptor` is `ProcessorDescriptor(StandardProcessorSpecs.blur) { … }`).
///
/// A program that only submits jobs checks and canonicalises chains against `catalog` and prints
/// exactly the text a worker running the processors prints (a test holds the two together).
public enum StandardProcessorSpecs {
    /// Every standard processor's spec, in the order the README documents them.
    public static let all: [ProcessorSpec] = [
        downsample, resize, crop, roundCorner, blur, tint, overlay, colorControls, blackWhite, border, blend, rotate, flip,
        trim, extend, pixelate, smartCrop, sharpen,
        watermark,
    ]

    /// A registry of the standard processors' specs: what every stock worker can run.
    public static var catalog: ValidationOnlyRegistry { ValidationOnlyRegistry(specs: all) }

    /// The largest pixel distance any radius or width can usefully have (the longest side an image
    /// may have); chain text accepts numbers up to this.
    public static let maximumPixels = Double(PixelSize.maximumDimension)

    /// How `crop` and `resize` describe their anchor.
    static let anchorSummary = "a named position or a point (x, y) in 0…1"

    /// `resize`'s modes, in declared order (`ImageProcessors.Resize.Mode`).
    public static let resizeModes = ["fit", "fill", "stretch"]
    /// `flip`'s directions (`ImageProcessors.Flip.Direction`).
    public static let flipDirections = ["horizontal", "vertical"]
    /// `roundCorner`'s corners, in canonical order (`ImageProcessors.RoundCorner.Corners`).
    public static let corners = ["topLeft", "topRight", "bottomLeft", "bottomRight"]
    /// `blend`'s modes: the W3C separable blend modes (`BlendMode` in `DarkroomCore`).
    public static let blendModes = [
        "normal", "multiply", "screen", "overlay", "darken", "lighten", "colorDodge", "colorBurn",
        "hardLight", "softLight", "difference", "exclusion",
    ]
}
