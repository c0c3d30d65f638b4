import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Unsharp mask on luminance: `sharpen(sigma: 1, amount: 1, threshold: 0)`.
    ///
    /// Each pixel's Rec. 709 luma gains `amount × (luma − Gaussian-blurred luma)`, added to R, G
    /// and B alike, where that difference is at least `threshold` levels (of 255). Luminance, not
    /// each channel (Pillow's `UnsharpMask`), because per-channel sharpening turns colour edges
    /// into coloured fringes; `vips sharpen` works on LAB L* for the same reason. The alpha
    /// channel is copied, never sharpened, and colour at transparent edges is sharpened in
    /// straight terms (see `Bitmap.unsharpMasked`).
    ///
    /// Defaults: sigma 1, amount 1, threshold 0. After a large reduction the image is already
    /// crisp at pixel scale and wants a narrow mask: `downsample(800x800)|>sharpen(sigma: 0.5)`,
    /// measured closest to `vips sharpen`'s defaults after the same reduction (the figures are in
    /// docs/chains-and-processors.md). Ranges: sigma > 0 and ≤ 10, amount 0…10, threshold 0…255.
    public struct Sharpen: ImageProcessing, Hashable {
        public var sigma: Double
        public var amount: Double
        public var threshold: Double

        public init(sigma: Double = 1, amount: Double = 1, threshold: Double = 0) {
            self.sigma = sigma
            self.amount = amount
            self.threshold = threshold
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.sharpen) { args in
            Sharpen(sigma: args.number("sigma"), amount: args.number("amount"), threshold: args.number("threshold"))
        }

        /// Every argument is in the canonical text and so in the cache key.
        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "sharpen", version: Self.descriptor.version,
                arguments: [("sigma", .number(sigma)), ("amount", .number(amount)), ("threshold", .number(threshold))],
                positionalCount: 0)
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            try bitmap.unsharpMasked(sigma: sigma, amount: amount, threshold: threshold)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Sharpen {
    /// Unsharp mask on luminance; see `ImageProcessors.Sharpen` for the defaults.
    public static func sharpen(sigma: Double = 1, amount: Double = 1, threshold: Double = 0) -> ImageProcessors.Sharpen {
        .init(sigma: sigma, amount: amount, threshold: threshold)
    }
}
