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
    ///   always exactly WxH. Only the kept region is resampled. With a focal point
    ///   (`resize(400x300, mode: fill, focus: 0.8,0.3)`) the window is centred on that point of
    ///   the covering size and kept inside it instead (`UnitPoint.focusOrigin`); being relative,
    ///   it is the same window whatever scale the decoder shrank to.
    /// - `stretch`: exactly WxH, each axis scaled independently.
    ///
    /// A width alone (`resize(400x)`, `PixelSize.width(400)`) or a height alone (`resize(x300)`):
    /// with `fit`, the image is scaled to that width (or height), the other side following the
    /// aspect ratio (never beyond 65535); with `stretch`, only that side changes and the other
    /// keeps the image's. `fill` needs both sides: the chain syntax refuses it with a free side,
    /// and the Swift API treats it as `fit`.
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

        /// The box; a free side is 0 (`PixelSize.isOneSided`).
        public var size: PixelSize
        public var mode: Mode
        /// Which part survives a `fill` crop; ignored by the other modes but part of the identity.
        public var anchor: UnitPoint
        /// The point a `fill` window is centred on; when set, `anchor` is not used. The chain
        /// syntax takes it with `fill` only; the other modes ignore it.
        public var focus: UnitPoint?

        public init(size: PixelSize, mode: Mode = .fit, anchor: UnitPoint = .center, focus: UnitPoint? = nil) {
            self.size = size
            self.mode = mode
            self.anchor = anchor
            self.focus = focus
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.resize) { args in
            // The binder has checked the word against the declared choices.
            Resize(
                size: args.box("size"), mode: Mode(rawValue: args.word("mode")) ?? .fit, anchor: args.anchor("anchor"),
                focus: args.point("focus"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "resize", version: Self.descriptor.version,
                arguments: [("size", .box(size)), ("mode", .word(mode.rawValue)), ("anchor", .point(anchor))]
                    + (focus.map { [("focus", .pair($0))] } ?? []),
                positionalCount: 1)
        }

        /// `mode`, except that a one-sided box fills as it fits.
        private var effectiveMode: Mode { mode == .fill && size.isOneSided ? .fit : mode }

        /// A free side counts as 65535 (`PixelSize.bounded`): for `fit` it constrains nothing, for
        /// `stretch` it keeps the decoder from shrinking that side.
        public var decodeHint: DecodeHint? {
            switch effectiveMode {
            case .fit: return DecodeHint(box: size.bounded, mode: .fit)
            case .fill: return DecodeHint(box: size, mode: .fill)
            case .stretch: return DecodeHint(box: size.bounded, mode: .stretch)
            }
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            let logical = bitmap.logicalSize
            switch effectiveMode {
            case .fit:
                return try bitmap.resampled(to: logical.fitting(in: size.bounded), from: bitmap.logicalRegion)
            case .stretch:
                return try bitmap.resampled(to: size.completed(from: logical), from: bitmap.logicalRegion)
            case .fill:
                let covering = logical.filling(size)
                let kept = PixelSize(width: min(size.width, covering.width), height: min(size.height, covering.height))
                let origin = focus?.focusOrigin(of: kept, in: covering) ?? anchor.origin(of: kept, in: covering)
                return try bitmap.resampledWindow(of: kept, at: origin, covering: covering)
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Resize {
    /// Scales the image to `size`: `.fit` inside it, `.fill` it and crop around `anchor` (or
    /// centred on the focal point `focus`), or `.stretch`.
    public static func resize(
        to size: PixelSize, mode: ImageProcessors.Resize.Mode = .fit,
        anchor: UnitPoint = .center, focus: UnitPoint? = nil
    ) -> ImageProcessors.Resize {
        .init(size: size, mode: mode, anchor: anchor, focus: focus)
    }
}
