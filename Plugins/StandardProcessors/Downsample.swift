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
    public struct Downsample: ImageProcessing, Hashable {
        /// The box the image must fit inside.
        public var size: PixelSize

        public init(size: PixelSize) {
            self.size = size
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.downsample) { args in
            Downsample(size: args.size("size"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "downsample", version: Self.descriptor.version,
                arguments: [("size", .size(size))], positionalCount: 1)
        }

        public var decodeHint: DecodeHint? { DecodeHint(box: size, mode: .fit) }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            let logical = bitmap.logicalSize
            guard logical.width > size.width || logical.height > size.height else {
                var unchanged = bitmap
                unchanged.sizeBeforeShrinkOnLoad = nil
                return unchanged
            }
            return try bitmap.resampled(to: logical.fitting(in: size), from: bitmap.logicalRegion)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Downsample {
    /// Fits the image inside `size` keeping its aspect ratio, shrinking on load; never enlarges.
    public static func downsample(to size: PixelSize) -> ImageProcessors.Downsample { .init(size: size) }
}
