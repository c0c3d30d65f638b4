import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Cuts a WxH rectangle out of the image: `crop(200x100, anchor: topLeft)`.
    ///
    /// The anchor is one of the named positions (`topLeft`, `top`, `topRight`, `left`, `center`,
    /// `right`, `bottomLeft`, `bottom`, `bottomRight`) or a unit point written `(x, y)` with both
    /// in 0…1, as Kingfisher's `CroppingImageProcessor` takes it: the rectangle's point at that
    /// relative position lies on the image's point at the same relative position, so `(0, 0)` keeps
    /// the top-left corner, `(1, 1)` the bottom-right and `(0.5, 0.5)` (`center`) the middle. The
    /// origin is rounded to whole pixels. Where the image is smaller than the rectangle on an axis,
    /// that axis keeps the image's size, and so does a side left out (`crop(400x)` cuts only the
    /// width, `crop(x300)` only the height). Pixels are copied, not resampled.
    public struct Crop: ImageProcessing, Hashable {
        /// The rectangle; a free side is 0 (`PixelSize.isOneSided`) and keeps the image's size.
        public var size: PixelSize
        public var anchor: UnitPoint

        public init(size: PixelSize, anchor: UnitPoint = .center) {
            self.size = size
            self.anchor = anchor
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.crop) { args in
            Crop(size: args.box("size"), anchor: args.anchor("anchor"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "crop", version: Self.descriptor.version,
                arguments: [("size", .box(size)), ("anchor", .point(anchor))], positionalCount: 1)
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            let box = size.bounded
            let kept = PixelSize(width: min(box.width, bitmap.width), height: min(box.height, bitmap.height))
            return try bitmap.cropped(to: PixelRect(origin: anchor.origin(of: kept, in: bitmap.size), size: kept))
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Crop {
    /// Cuts a `size` rectangle out of the image, placed by `anchor`.
    public static func crop(to size: PixelSize, anchor: UnitPoint = .center) -> ImageProcessors.Crop {
        .init(size: size, anchor: anchor)
    }
}
