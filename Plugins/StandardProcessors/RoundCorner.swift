import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Rounds some or all corners of the image with an anti-aliased arc
    /// (Kingfisher's `RoundCornerImageProcessor`).
    ///
    /// Chain text: `roundCorner(radius, corners: all, background: #00000000)`.
    /// - `radius`: pixels, > 0; clamped to half the image's shorter side (so `roundCorner(9999)`
    ///   makes a circle of a square image, a capsule of a long one).
    /// - `corners`: any of `topLeft+topRight+bottomLeft+bottomRight`, or `all` (the default).
    /// - `background`: what the cut-off corners become, transparent by default. Each pixel is
    ///   `k·image + (1 − k)·background`, k being the exact fraction of the pixel inside the
    ///   rounded rectangle, so the edge is anti-aliased against the background. Inside the
    ///   rounded rectangle the image is unchanged (its own transparent pixels stay transparent).
    ///
    /// The output may be transparent when `background` is not opaque, so a JPEG source is then
    /// written as PNG by the serializer. The canvas size never changes.
    public struct RoundCorner: ImageProcessing, Hashable {
        /// A set of corners.
        public struct Corners: OptionSet, Hashable, Sendable {
            public let rawValue: UInt8
            public init(rawValue: UInt8) { self.rawValue = rawValue }

            public static let topLeft = Corners(rawValue: 1)
            public static let topRight = Corners(rawValue: 2)
            public static let bottomLeft = Corners(rawValue: 4)
            public static let bottomRight = Corners(rawValue: 8)
            public static let all: Corners = [.topLeft, .topRight, .bottomLeft, .bottomRight]

            /// The chain-text names, in declared (canonical) order.
            public static let named: [(name: String, corner: Corners)] = [
                ("topLeft", .topLeft), ("topRight", .topRight), ("bottomLeft", .bottomLeft), ("bottomRight", .bottomRight),
            ]

            /// The set named by `names` (unknown names are ignored; the binder has rejected them).
            public init(names: [String]) {
                self = Corners(Self.named.filter { names.contains($0.name) }.map(\.corner))
            }

            /// The names of the corners in the set, in declared order.
            public var names: [String] { Self.named.filter { contains($0.corner) }.map(\.name) }
        }

        /// Corner radius in pixels (0 leaves the image unchanged).
        public var radius: Double
        public var corners: Corners
        public var background: RGBAColor

        /// A negative or NaN radius becomes 0 (no rounding); radii above 65535 become 65535.
        public init(radius: Double, corners: Corners = .all, background: RGBAColor = .clear) {
            self.radius = ColorParameter.clamp(radius, to: 0...ColorParameter.maximumPixels, fallback: 0)
            self.corners = corners
            self.background = background
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.roundCorner) { args in
            RoundCorner(
                radius: args.number("radius"),
                corners: Corners(names: args.words("corners")), background: args.color("background"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "roundCorner", version: Self.descriptor.version,
                arguments: [
                    ("radius", .number(radius)), ("corners", .words(corners.names)), ("background", .color(background)),
                ], positionalCount: 1)
        }

        public var introducesTransparency: Bool { background.alpha < 255 && radius > 0 && !corners.isEmpty }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            guard radius > 0, !corners.isEmpty else { return bitmap }
            func r(_ corner: Corners) -> Double { corners.contains(corner) ? radius : 0 }
            let shape = RoundedRectCoverage(
                width: bitmap.width, height: bitmap.height,
                radii: CornerRadii(
                    topLeft: r(.topLeft), topRight: r(.topRight), bottomLeft: r(.bottomLeft), bottomRight: r(.bottomRight)))
            return try bitmap.clipped(to: shape, background: background)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.RoundCorner {
    /// Rounds the chosen corners by `radius` pixels; the cut-off parts become `background`.
    public static func roundCorner(
        radius: Double, corners: ImageProcessors.RoundCorner.Corners = .all,
        background: RGBAColor = .clear
    ) -> ImageProcessors.RoundCorner {
        .init(radius: radius, corners: corners, background: background)
    }
}
