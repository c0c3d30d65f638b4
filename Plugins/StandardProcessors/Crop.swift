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
    ///
    /// A focal point, `crop(400x300, focus: 0.8,0.3)`, replaces the anchor: the rectangle is
    /// centred on that point of the image and kept inside it (`UnitPoint.focusOrigin`). Left out,
    /// it is absent from the canonical text, which stays what it was before focal points.
    public struct Crop: ImageProcessing, Hashable {
        /// The rectangle; a free side is 0 (`PixelSize.isOneSided`) and keeps the image's size.
        public var size: PixelSize
        public var anchor: UnitPoint
        /// The point to centre the rectangle on; when set, `anchor` is not used.
        public var focus: UnitPoint?

        public init(size: PixelSize, anchor: UnitPoint = .center, focus: UnitPoint? = nil) {
            self.size = size
            self.anchor = anchor
            self.focus = focus
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.crop) { args in
            Crop(size: args.box("size"), anchor: args.anchor("anchor"), focus: args.point("focus"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "crop", version: Self.descriptor.version,
                arguments: [("size", .box(size)), ("anchor", .point(anchor))] + (focus.map { [("focus", .pair($0))] } ?? []),
                positionalCount: 1)
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            let box = size.bounded
            let kept = PixelSize(width: min(box.width, bitmap.width), height: min(box.height, bitmap.height))
            let origin = focus?.focusOrigin(of: kept, in: bitmap.size) ?? anchor.origin(of: kept, in: bitmap.size)
            return try bitmap.cropped(to: PixelRect(origin: origin, size: kept))
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Crop {
    /// Cuts a `size` rectangle out of the image, placed by `anchor`.
    public static func crop(to size: PixelSize, anchor: UnitPoint = .center) -> ImageProcessors.Crop {
        .init(size: size, anchor: anchor)
    }

    /// Cuts a `size` rectangle out of the image, centred on the focal point `focus` and kept inside it.
    public static func crop(to size: PixelSize, focus: UnitPoint) -> ImageProcessors.Crop {
        .init(size: size, focus: focus)
    }
}
