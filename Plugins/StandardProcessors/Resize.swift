import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Scales the image to a box, enlarging or reducing: `resize(400x300, mode: fit|fill|stretch, anchor: center)`.
    ///
    /// - `fit` (default): the largest size with the image's aspect ratio inside the box
    ///   (Kingfisher's `.aspectFit`); the result may be smaller than the box on one axis.
    /// - `fill`: scaled to cover the box keeping the aspect ratio, then cropped to exactly the box,
    ///   the kept part placed by `anchor` as `crop` places it (imgproxy's `fill`). Unlike
    ///   Kingfisher's `.aspectFill`, which returns the uncropped covering size, the result is
    ///   always exactly WxH. Only the kept region is resampled.
    /// - `stretch`: exactly WxH, each axis scaled independently.
    ///
    /// Sizes are computed from `Bitmap.logicalSize` (the size before shrink-on-load), sides rounded
    /// to the nearest pixel. Lanczos-3 on premultiplied alpha, as `downsample`. The decoder is
    /// always given a hint for the mode: it shrinks on load only when the image is larger than
    /// needed and never below what the mode covers, so enlarging still starts from full size.
    public struct Resize: ImageProcessing, Hashable {
        /// How the image's aspect ratio meets the box.
        public enum Mode: String, Hashable, Sendable, CaseIterable {
            case fit, fill, stretch
        }

        public var size: PixelSize
        public var mode: Mode
        /// Which part survives a `fill` crop; ignored by the other modes but part of the identity.
        public var anchor: UnitPoint

        public init(size: PixelSize, mode: Mode = .fit, anchor: UnitPoint = .center) {
            self.size = size
            self.mode = mode
            self.anchor = anchor
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.resize) { args in
            // The binder has checked the word against the declared choices.
            Resize(size: args.size("size"), mode: Mode(rawValue: args.word("mode")) ?? .fit, anchor: args.anchor("anchor"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "resize", version: Self.descriptor.version,
                arguments: [("size", .size(size)), ("mode", .word(mode.rawValue)), ("anchor", .point(anchor))],
                positionalCount: 1)
        }

        public var decodeHint: DecodeHint? {
            switch mode {
            case .fit: return DecodeHint(box: size, mode: .fit)
            case .fill: return DecodeHint(box: size, mode: .fill)
            case .stretch: return DecodeHint(box: size, mode: .stretch)
            }
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            let logical = bitmap.logicalSize
            switch mode {
            case .fit:
                return try bitmap.resampled(to: logical.fitting(in: size), from: bitmap.logicalRegion)
            case .stretch:
                return try bitmap.resampled(to: size, from: bitmap.logicalRegion)
            case .fill:
                // Crop in the covering size's pixel grid (as resizing then cropping would), then
                // map that rectangle back onto the decoded pixels and resample only it.
                let covering = logical.filling(size)
                let kept = PixelSize(width: min(size.width, covering.width), height: min(size.height, covering.height))
                let origin = anchor.origin(of: kept, in: covering)
                let extent = bitmap.logicalRegion
                let sx = extent.width / Double(covering.width)
                let sy = extent.height / Double(covering.height)
                let region = (
                    x: Double(origin.x) * sx, y: Double(origin.y) * sy,
                    width: Double(kept.width) * sx, height: Double(kept.height) * sy
                )
                return try bitmap.resampled(to: kept, from: region)
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Resize {
    /// Scales the image to `size`: `.fit` inside it, `.fill` it and crop around `anchor`, or `.stretch`.
    public static func resize(
        to size: PixelSize, mode: ImageProcessors.Resize.Mode = .fit,
        anchor: UnitPoint = .center
    ) -> ImageProcessors.Resize {
        .init(size: size, mode: mode, anchor: anchor)
    }
}
