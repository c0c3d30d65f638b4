import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Grows the canvas to a size, the image placed by an anchor: `extend(800x600, anchor:
    /// bottomRight, color: #FFFFFF)`.
    ///
    /// Never shrinks: on an axis where the image is already at least as large as `size` (or that
    /// `size` leaves out, `extend(800x)`), the canvas keeps the image's size, so `extend(800x600)`
    /// of a 1000×400 image gives 1000×600. The anchor is a named position or a unit point `(x, y)`:
    /// the image's offset on each axis is that fraction of the added space, rounded down, as
    /// `vips gravity` places it (`center` puts the odd pixel right and below). The added area is
    /// `color` (transparent by default, which makes a JPEG source's result a PNG); the image's
    /// pixels are copied unchanged. The canvas obeys the output-pixel limit of the image's bitmap.
    ///
    /// With an aspect ratio instead of a size, `extend(aspect: 16:9)`, the canvas is the smallest
    /// of that ratio that holds the image (`AspectRatio.smallestCanvas(containing:)`): one side
    /// stays, the other grows, rounded up; an image already at the ratio is unchanged.
    public struct Extend: ImageProcessing, Hashable {
        /// The canvas; a free side is 0 (`PixelSize.isOneSided`) and keeps the image's size. Not
        /// used when `aspect` is set.
        public var size: PixelSize
        /// The canvas's aspect ratio, in place of `size`.
        public var aspect: AspectRatio?
        public var anchor: UnitPoint
        public var color: RGBAColor

        public init(size: PixelSize, anchor: UnitPoint = .center, color: RGBAColor = .clear) {
            self.size = size
            self.anchor = anchor
            self.color = color
        }

        /// The smallest canvas of `aspect` that holds the image.
        public init(aspect: AspectRatio, anchor: UnitPoint = .center, color: RGBAColor = .clear) {
            self.init(size: PixelSize(width: 0, height: 0), anchor: anchor, color: color)
            self.aspect = aspect.reduced
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.extend) { args in
            // The spec's check has made sure exactly one of size and aspect is given.
            if let aspect = args.ratio("aspect") {
                return Extend(aspect: aspect, anchor: args.anchor("anchor"), color: args.color("color"))
            }
            return Extend(size: args.box("size"), anchor: args.anchor("anchor"), color: args.color("color"))
        }

        public var invocation: ProcessorInvocation {
            let placed: [(label: String, value: ArgumentValue)] = [("anchor", .point(anchor)), ("color", .color(color))]
            guard let aspect else {
                return ProcessorInvocation(
                    name: "extend", version: Self.descriptor.version, arguments: [("size", .box(size))] + placed, positionalCount: 1)
            }
            return ProcessorInvocation(
                name: "extend", version: Self.descriptor.version, arguments: placed + [("aspect", .ratio(aspect))], positionalCount: 0)
        }

        public var introducesTransparency: Bool { !color.isOpaque }

        /// The canvas for an image of `image` size: each axis the larger of the two, or the
        /// smallest canvas of `aspect` that holds the image.
        public func canvas(for image: PixelSize) -> PixelSize {
            if let aspect { return aspect.smallestCanvas(containing: image) }
            return PixelSize(width: max(image.width, size.width), height: max(image.height, size.height))
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            let canvas = canvas(for: bitmap.size)
            guard canvas != bitmap.size else { return bitmap }
            // Rounded down, not to nearest (as `UnitPoint.origin` does for crop): vips gravity's
            // integer halving, so the two agree to the pixel.
            let x = Int((Double(canvas.width - bitmap.width) * anchor.x).rounded(.down))
            let y = Int((Double(canvas.height - bitmap.height) * anchor.y).rounded(.down))
            var result = try Bitmap(width: canvas.width, height: canvas.height, fill: color, limits: bitmap.limits)
            result.isOpaque = bitmap.isOpaque && color.isOpaque
            let rowBytes = bitmap.width * 4
            result.withUnsafeMutableBytes { dst in
                bitmap.withUnsafeBytes { src in
                    let s = UnsafeRawPointer(src.baseAddress!)
                    let d = UnsafeMutableRawPointer(dst.baseAddress!) + y * canvas.width * 4 + x * 4
                    for row in 0..<bitmap.height {
                        (d + row * canvas.width * 4).copyMemory(from: s + row * bitmap.bytesPerRow, byteCount: rowBytes)
                    }
                }
            }
            return result
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Extend {
    /// Grows the canvas to `size` (never shrinking), the image placed by `anchor`, the new area `color`.
    public static func extend(to size: PixelSize, anchor: UnitPoint = .center, color: RGBAColor = .clear) -> ImageProcessors.Extend {
        .init(size: size, anchor: anchor, color: color)
    }

    /// Grows the canvas to the smallest of ratio `aspect` that holds the image, placed by `anchor`.
    public static func extend(
        toAspect aspect: AspectRatio, anchor: UnitPoint = .center, color: RGBAColor = .clear
    ) -> ImageProcessors.Extend {
        .init(aspect: aspect, anchor: anchor, color: color)
    }
}
