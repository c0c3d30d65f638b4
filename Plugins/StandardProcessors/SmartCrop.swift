import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Scales the image to cover a box, then keeps the window that matters most:
    /// `smartCrop(400x400, strategy: attention|entropy|center)`.
    ///
    /// The image is scaled, keeping its aspect ratio, to the smallest size that covers WxH (as
    /// `resize(mode: fill)` does, computed from `Bitmap.logicalSize`, with the same shrink-on-load
    /// hint), so the window slides along one axis only. Where it goes:
    /// - `center`: the middle, exactly as `resize(WxH, mode: fill)`.
    /// - `attention` (default): the window centred, as far as it stays inside, on the most
    ///   interesting region: edges, skin tones and warm colours on a coarse grid, smoothed at the
    ///   window's scale (`SmartCropAttention`).
    /// - `entropy`: the window whose luminance histogram has the greatest entropy
    ///   (`SmartCropEntropy`): the busiest part.
    ///
    /// Both scoring strategies look at a small copy of the covering image (`entropy`: at most
    /// `SmartCropSample.longestSide` pixels; `attention`: a 32 × 32 grid) and map what they find
    /// back to the covering size; among equal scores the one nearest the centre wins, so a flat
    /// image is cropped in the middle. Only the chosen window is resampled (Lanczos-3, premultiplied alpha).
    public struct SmartCrop: ImageProcessing, Hashable {
        /// How the window is chosen.
        public enum Strategy: String, Hashable, Sendable, CaseIterable {
            case attention, entropy, center
        }

        /// The output size.
        public var size: PixelSize
        public var strategy: Strategy

        public init(size: PixelSize, strategy: Strategy = .attention) {
            self.size = size
            self.strategy = strategy
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.smartCrop) { args in
            // The binder has checked the word against the declared choices.
            SmartCrop(size: args.size("size"), strategy: Strategy(rawValue: args.word("strategy")) ?? .attention)
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "smartCrop", version: Self.descriptor.version,
                arguments: [("size", .size(size)), ("strategy", .word(strategy.rawValue))], positionalCount: 1)
        }

        public var decodeHint: DecodeHint? { DecodeHint(box: size, mode: .fill) }

        /// The window this processor keeps, in the pixel grid of the image scaled to cover the box
        /// (`size` of the returned pair): what `process` cuts out.
        public func window(in bitmap: Bitmap) throws -> (rect: PixelRect, covering: PixelSize) {
            let covering = bitmap.logicalSize.filling(size)
            let kept = PixelSize(width: min(size.width, covering.width), height: min(size.height, covering.height))
            let origin: (x: Int, y: Int)
            switch strategy {
            case .center:
                origin = UnitPoint.center.origin(of: kept, in: covering)
            case .attention:
                let attention = try SmartCropAttention(bitmap, covering: covering, kept: kept)
                origin =
                    attention.peak.map { attention.origin(of: kept, in: covering, on: $0) } ?? UnitPoint.center.origin(of: kept, in: covering)
            case .entropy:
                let sample = try SmartCropSample(bitmap, covering: covering)
                let entropy = SmartCropEntropy(sample)
                origin = sample.bestOrigin(of: kept, in: covering) { x, y, w, h in entropy.entropy(x: x, y: y, width: w, height: h) }
            }
            return (PixelRect(x: origin.x, y: origin.y, width: kept.width, height: kept.height), covering)
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            let (rect, covering) = try window(in: bitmap)
            // Already at the covering size: cut the pixels out, as `crop` does, without resampling.
            if covering == bitmap.size && bitmap.sizeBeforeShrinkOnLoad == nil {
                return try bitmap.cropped(to: rect)
            }
            return try bitmap.resampledWindow(of: rect.size, at: (rect.x, rect.y), covering: covering)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.SmartCrop {
    /// Scales the image to cover `size`, then keeps the window `strategy` finds most interesting.
    public static func smartCrop(
        to size: PixelSize, strategy: ImageProcessors.SmartCrop.Strategy = .attention
    ) -> ImageProcessors.SmartCrop {
        .init(size: size, strategy: strategy)
    }
}
