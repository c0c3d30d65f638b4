import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Draws a second image over the output: `watermark("https://cdn.example.com/logo.png",
    /// version: 1, anchor: bottomRight, margin: 16, scale: 0.2, opacity: 1, tile: false)`.
    ///
    /// The watermark's width is `scale` × the output's width (at least 1 px), its height keeps its
    /// aspect; it is resampled with Lanczos-3 on premultiplied pixels, as `resize` does. Placed by
    /// `anchor` inside the output less `margin` on every side (see `WatermarkLayout`), or, with
    /// `tile: true`, repeated on a grid through that place, `margin` apart (at most
    /// `WatermarkLayout.maxTiles` copies). Drawn source-over in premultiplied 8-bit with its
    /// alpha times `opacity`; the parts outside the output are cut off. An opaque output stays
    /// opaque.
    ///
    /// The processor does no I/O: the pipeline fetches `source` (`resources`) and passes its
    /// pixels in through `ImageProcessingContext.resources`.
    public struct Watermark: ImageProcessing, ResourceDependent, Hashable {
        public var source: String
        public var version: Int
        public var anchor: UnitPoint
        public var margin: Int
        public var scale: Double
        public var opacity: Double
        public var tile: Bool

        /// Out-of-range values are clamped: `version` ≥ 1, `margin` into 0…4096, `scale` into
        /// (0, 1] (NaN becomes 0.2), `opacity` into 0…1 (NaN becomes 1).
        public init(
            source: String, version: Int = 1, anchor: UnitPoint = .bottomRight, margin: Int = 16, scale: Double = 0.2,
            opacity: Double = 1, tile: Bool = false
        ) {
            self.source = source
            self.version = max(1, version)
            self.anchor = anchor
            self.margin = min(4096, max(0, margin))
            self.scale = scale.isNaN ? 0.2 : min(1, max(0.0001, scale))
            self.opacity = opacity.isNaN ? 1 : min(1, max(0, opacity))
            self.tile = tile
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.watermark) { args in
            Watermark(
                source: args.text("source"), version: args.integer("version"), anchor: args.anchor("anchor"),
                margin: args.integer("margin"), scale: args.number("scale"), opacity: args.number("opacity"),
                tile: args.word("tile") == "true")
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "watermark", version: Self.descriptor.version,
                arguments: [
                    ("source", .text(source)), ("version", .number(Double(version))), ("anchor", .point(anchor)),
                    ("margin", .number(Double(margin))), ("scale", .number(scale)), ("opacity", .number(opacity)),
                    ("tile", .word(tile ? "true" : "false")),
                ],
                positionalCount: 1)
        }

        /// The one image this processor draws.
        public var reference: ResourceReference { ResourceReference(source: source, version: version) }

        public var resources: [ResourceReference] { [reference] }

        /// The watermark comes only through the context.
        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            throw ResourceError.unresolved(reference)
        }

        public func process(_ item: ImageProcessItem, context: ImageProcessingContext) throws -> ImageProcessItem {
            guard let mark = context.resources[reference] else { throw ResourceError.unresolved(reference) }
            let bitmap: Bitmap
            switch item {
            case .bitmap(let decoded): bitmap = decoded
            case .data(let encoded): bitmap = try context.decoder.decode(encoded, hint: nil)
            }
            return .bitmap(try draw(mark, over: bitmap))
        }

        /// `mark` scaled, placed and drawn over `bitmap`.
        public func draw(_ mark: Bitmap, over bitmap: Bitmap) throws -> Bitmap {
            let layout = try WatermarkLayout(
                output: bitmap.size, mark: mark.size, anchor: anchor, margin: margin, scale: scale, tile: tile,
                reference: reference)
            var scaled = mark
            if layout.size != mark.size { scaled = try mark.resampled(to: layout.size) }
            return bitmap.drawing(scaled, at: layout, opacity: opacity)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Watermark {
    /// Draws the image at `source` (fetched by the pipeline before the chain runs) over the output.
    public static func watermark(
        _ source: String, version: Int = 1, anchor: UnitPoint = .bottomRight, margin: Int = 16, scale: Double = 0.2,
        opacity: Double = 1, tile: Bool = false
    ) -> ImageProcessors.Watermark {
        .init(source: source, version: version, anchor: anchor, margin: margin, scale: scale, opacity: opacity, tile: tile)
    }
}
