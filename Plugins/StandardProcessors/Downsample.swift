import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Makes the image fit inside a box, keeping its aspect ratio; never enlarges.
    ///
    /// `downsample(400x300)`: an image already inside the box is returned unchanged. Otherwise the
    /// target is the image's own size (`Bitmap.logicalSize`, its size before any shrink-on-load)
    /// fitted into the box, each side rounded to the nearest pixel (at least 1), so the result has
    /// the dimensions a full-size decode would give. The decoder is asked to shrink on load
    /// (`DecodeHint(box:mode: .fit)`: JPEG DCT scaling, WebP scaled decode), then the decoded
    /// pixels are reduced to exactly the target with Lanczos-3 on premultiplied alpha (see
    /// `Bitmap.resampled(to:)`), mapping the decoded pixels' exact extent (`logicalRegion`) onto
    /// it. Agrees with `vipsthumbnail -s WxH`.
    ///
    /// A width alone (`downsample(400x)`, `PixelSize.width(400)`) or a height alone
    /// (`downsample(x300)`) constrains only that side: the image is made that wide (or high),
    /// the other side following the aspect ratio, when it is larger. The free side counts as the
    /// longest side an image may have (`PixelSize.bounded`), for the fit and the decode hint alike.
    public struct Downsample: ImageProcessing, Hashable {
        /// The box the image must fit inside; a free side is 0 (`PixelSize.isOneSided`).
        public var size: PixelSize

        public init(size: PixelSize) {
            self.size = size
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.downsample) { args in
            Downsample(size: args.box("size"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "downsample", version: Self.descriptor.version,
                arguments: [("size", .box(size))], positionalCount: 1)
        }

        public var decodeHint: DecodeHint? { DecodeHint(box: size.bounded, mode: .fit) }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            let logical = bitmap.logicalSize
            let box = size.bounded
            guard logical.width > box.width || logical.height > box.height else {
                var unchanged = bitmap
                unchanged.sizeBeforeShrinkOnLoad = nil
                return unchanged
            }
            return try bitmap.resampled(to: logical.fitting(in: box), from: bitmap.logicalRegion)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Downsample {
    /// Fits the image inside `size` keeping its aspect ratio, shrinking on load; never enlarges.
    public static func downsample(to size: PixelSize) -> ImageProcessors.Downsample { .init(size: size) }
}
