import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("watermark: an image drawn over the output")
struct WatermarkTests {
    static let registry = StandardProcessors.registry
    static let reference = ResourceReference(source: "logo.png", version: 1)

    /// The plain computation: every output pixel inside a copy placed at one of `origins` becomes
    /// `m' + d·(255 − m'α)/255` with `m' = m·round(255·opacity)/255`, each rounded to nearest.
    static func expected(_ output: Bitmap, mark: Bitmap, origins: [(x: Int, y: Int)], opacity: Double) -> [UInt8] {
        let strength = (opacity * 255).rounded()
        var out = TestPixels.pixels(output)
        for origin in origins {
            for v in 0..<mark.height {
                for u in 0..<mark.width {
                    let (x, y) = (origin.x + u, origin.y + v)
                    guard (0..<output.width).contains(x), (0..<output.height).contains(y) else { continue }
                    let m = mark.premultipliedPixel(x: u, y: v)
                    let scaled = [m.r, m.g, m.b, m.a].map { (Double($0) * strength / 255).rounded() }
                    let i = (y * output.width + x) * 4
                    for c in 0..<4 {
                        out[i + c] = UInt8(min(255, scaled[c] + (Double(out[i + c]) * (255 - scaled[3]) / 255).rounded()))
                    }
                }
            }
        }
        return out
    }

    static func watermark(
        anchor: UnitPoint = .bottomRight, margin: Int = 3, scale: Double, opacity: Double = 1, tile: Bool = false
    ) -> ImageProcessors.Watermark {
        .watermark("logo.png", anchor: anchor, margin: margin, scale: scale, opacity: opacity, tile: tile)
    }

    @Test("The chain text fills in the defaults and reads back; quotes and backslashes are escaped")
    func chainText() throws {
        try ChainSyntaxChecks.roundTrip(
            #"watermark("logo.png")"#,
            canonical: #"watermark("logo.png", version: 1, anchor: bottomRight, margin: 16, scale: 0.2, opacity: 1, tile: false)"#,
            registry: Self.registry)
        try ChainSyntaxChecks.roundTrip(
            #"smartCrop(800x600)|>sharpen|>watermark( "https://cdn.example.com/a \"b\" \\c.png" , version: 3, anchor: (0.25, 1), tile: true, opacity: 0.6)"#,
            canonical:
                #"smartCrop(800x600, strategy: attention)|>sharpen(sigma: 1, amount: 1, threshold: 0)|>watermark("https://cdn.example.com/a \"b\" \\c.png", version: 3, anchor: (0.25, 1), margin: 16, scale: 0.2, opacity: 0.6, tile: true)"#,
            registry: Self.registry)
        let chain = try Self.registry.chain(from: #"watermark("a.png")|>watermark("a.png", version: 2)|>watermark("a.png")"#)
        #expect(chain.resources == [ResourceReference(source: "a.png", version: 1), ResourceReference(source: "a.png", version: 2)])
    }

    @Test(
        "Bad arguments fail with the argument's column",
        arguments: [
            (#"watermark(logo)"#, "source", 11), (#"watermark("")"#, "source", 11),
            (#"watermark("x", opacity: 2)"#, "opacity", 25), (#"watermark("x", scale: 0)"#, "scale", 23),
            (#"watermark("x", tile: yes)"#, "tile", 22), (#"watermark("x", version: 0)"#, "version", 25),
            (#"watermark("x", margin: -1)"#, "margin", 24),
        ])
    func badArguments(text: String, argument: String, column: Int) {
        #expect {
            _ = try Self.registry.chain(from: text)
        } throws: { error in
            guard let error = error as? ChainError else { return false }
            return error.code == .invalidArgument && error.argument == argument && error.column == column
        }
    }

    @Test("Text needs its closing quote and no control characters", arguments: [#"watermark("x.png"#, "watermark(\"a\u{7}b\")"])
    func badText(text: String) {
        #expect(throws: ChainError.self) { _ = try Self.registry.chain(from: text) }
    }

    @Test("Anchor and margin place it exactly; center ignores the margin")
    func placement() throws {
        let output = PixelSize(width: 37, height: 23)
        let mark = PixelSize(width: 7, height: 5)
        func place(_ anchor: UnitPoint) throws -> (Int, Int) {
            let layout = try WatermarkLayout(
                output: output, mark: mark, anchor: anchor, margin: 3, scale: 7.0 / 37, tile: false, reference: Self.reference)
            #expect(layout.size == mark)
            return (layout.columns[0], layout.rows[0])
        }
        #expect(try place(.bottomRight) == (27, 15))
        #expect(try place(.topLeft) == (3, 3))
        #expect(try place(.center) == (15, 9))
        #expect(try place(.right) == (27, 9))
    }

    @Test("It is drawn source-over at its place, with its alpha times opacity", arguments: [1.0, 0.6, 0.25, 0.0])
    func drawing(opacity: Double) throws {
        let output = TestPixels.mixedAlpha(width: 37, height: 23)
        let mark = TestPixels.mixedAlpha(width: 7, height: 5)
        let processor = Self.watermark(scale: 7.0 / 37, opacity: opacity)
        let result = try processor.draw(mark, over: output)
        #expect(TestPixels.pixels(result) == Self.expected(output, mark: mark, origins: [(27, 15)], opacity: opacity))
        #expect(TestPixels.isPremultipliedValid(result))
    }

    @Test("Its width is scale × the output's, its aspect kept, resampled as resize does")
    func scaled() throws {
        let output = TestBitmaps.noise(width: 50, height: 40)
        let mark = TestPixels.mixedAlpha(width: 20, height: 10)
        let result = try Self.watermark(anchor: .topLeft, margin: 2, scale: 0.5).draw(mark, over: output)
        let resampled = try mark.resampled(to: PixelSize(width: 25, height: 13))
        #expect(TestPixels.pixels(result) == Self.expected(output, mark: resampled, origins: [(2, 2)], opacity: 1))
        #expect(result.isOpaque)
    }

    @Test("Tiles repeat through the anchored place, margin apart, partial ones at the edges")
    func tiling() throws {
        let layout = try WatermarkLayout(
            output: PixelSize(width: 37, height: 23), mark: PixelSize(width: 7, height: 5), anchor: .topLeft, margin: 2,
            scale: 7.0 / 37, tile: true, reference: Self.reference)
        #expect(layout.columns == [-7, 2, 11, 20, 29])
        #expect(layout.rows == [-5, 2, 9, 16])
        let output = TestBitmaps.noise(width: 37, height: 23)
        let mark = TestPixels.mixedAlpha(width: 7, height: 5)
        let result = try Self.watermark(anchor: .topLeft, margin: 2, scale: 7.0 / 37, opacity: 0.6, tile: true).draw(mark, over: output)
        let origins = layout.rows.flatMap { y in layout.columns.map { x in (x: x, y: y) } }
        #expect(TestPixels.pixels(result) == Self.expected(output, mark: mark, origins: origins, opacity: 0.6))
    }

    @Test("Tiling is bounded: 10000 copies are drawn, more fail with resource.too-many-tiles")
    func tileBound() throws {
        let fits = try WatermarkLayout(
            output: PixelSize(width: 1000, height: 1000), mark: PixelSize(width: 10, height: 10), anchor: .topLeft, margin: 0,
            scale: 0.01, tile: true, reference: Self.reference)
        #expect(fits.columns.count * fits.rows.count == WatermarkLayout.maxTiles)
        #expect {
            _ = try WatermarkLayout(
                output: PixelSize(width: 4000, height: 3000), mark: PixelSize(width: 10, height: 10), anchor: .topLeft, margin: 0,
                scale: 0.001, tile: true, reference: Self.reference)
        } throws: { ($0 as? ResourceError)?.code == .tooManyTiles }
    }

    @Test("Banded and unbanded drawing give identical bytes at odd sizes")
    func banded() throws {
        let output = TestBitmaps.noise(width: 301, height: 157)
        let mark = TestPixels.mixedAlpha(width: 23, height: 11)
        let processor = Self.watermark(anchor: .center, margin: 5, scale: 0.13, opacity: 0.7, tile: true)
        let unsplit = try RowBands.$forcedCount.withValue(1) { try processor.draw(mark, over: output) }
        for bands in [2, 3, 7] {
            let split = try RowBands.$forcedCount.withValue(bands) { try processor.draw(mark, over: output) }
            #expect(TestPixels.pixels(split) == TestPixels.pixels(unsplit))
        }
    }

    @Test("Run in a chain it reads its pixels from the context, and fails clearly without them")
    func context() throws {
        let output = TestBitmaps.noise(width: 37, height: 23)
        let mark = TestPixels.mixedAlpha(width: 7, height: 5)
        let processor = Self.watermark(scale: 7.0 / 37)
        let context = ImageProcessingContext(decoder: NoDecoder(), resources: ResolvedResources([Self.reference: mark]))
        guard case .bitmap(let result) = try processor.process(.bitmap(output), context: context) else {
            Issue.record("expected a bitmap")
            return
        }
        #expect(TestPixels.pixels(result) == TestPixels.pixels(try processor.draw(mark, over: output)))
        #expect {
            _ = try processor.process(.bitmap(output), context: ImageProcessingContext(decoder: NoDecoder()))
        } throws: { ($0 as? ResourceError)?.code == .unresolved }
    }

    /// A context's decoder these tests never call.
    struct NoDecoder: ImageDecodingService {
        func decode(_ image: EncodedImage, hint: DecodeHint?) throws -> Bitmap { throw ResourceError.unresolved(WatermarkTests.reference) }
    }
}
