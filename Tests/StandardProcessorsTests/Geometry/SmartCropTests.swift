import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("smartCrop: cover the box, keep the window that matters")
struct SmartCropTests {
    static var registry: ProcessorRegistry { StandardProcessors.registry }

    /// A grey image with one disc of `color`: the only thing worth keeping.
    static func disc(_ color: (UInt8, UInt8, UInt8), width: Int, height: Int, at centre: (x: Int, y: Int), radius: Int) -> Bitmap {
        try! Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * rowBytes + x * 4
                    let inside = (x - centre.x) * (x - centre.x) + (y - centre.y) * (y - centre.y) <= radius * radius
                    (bytes[i], bytes[i + 1], bytes[i + 2]) = inside ? color : (128, 128, 128)
                    bytes[i + 3] = 255
                }
            }
        }
    }

    static func processor(_ text: String) throws -> ImageProcessors.SmartCrop {
        try #require(try registry.chain(from: text).processors[0] as? ImageProcessors.SmartCrop)
    }

    @Test("The chain text canonicalises with the default strategy, and the strategy is in the identity")
    func canonical() throws {
        try ChainSyntaxChecks.roundTrip("smartCrop(200x100)", canonical: "smartCrop(200x100, strategy: attention)", registry: Self.registry)
        try ChainSyntaxChecks.roundTrip(
            "smartCrop(strategy: entropy, size: 200x100)", canonical: "smartCrop(200x100, strategy: entropy)", registry: Self.registry)
        let attention = try Self.registry.chain(from: "smartCrop(200x100)")
        let centre = try Self.registry.chain(from: "smartCrop(200x100, strategy: center)")
        #expect(attention.identifier == "smartCrop.v2(200x100, strategy: attention)")
        #expect(attention.identifier != centre.identifier)
        #expect(attention.hashableIdentifier != centre.hashableIdentifier)
    }

    @Test(
        "Bad arguments fail with the argument, a column and a suggestion",
        arguments: [
            ("smartCrop(200x)", ChainError.Code.invalidArgument, "size"),
            ("smartCrop(0x100)", .invalidArgument, "size"),
            ("smartCrop(200x100, strategy: atention)", .invalidArgument, "strategy"),
            ("smartCrop()", .missingArgument, "size"),
            ("smartCrop(200x100, gravity: center)", .unknownArgument, "gravity"),
        ])
    func errors(text: String, code: ChainError.Code, argument: String) {
        #expect(throws: ChainError.self) { try Self.registry.chain(from: text) }
        do {
            _ = try Self.registry.chain(from: text)
        } catch {
            #expect(error.code == code)
            #expect(error.argument == argument)
            #expect(error.column > 0)
            if argument == "strategy" { #expect(error.suggestion == "attention") }
        }
    }

    @Test("center keeps the middle exactly as crop does when the image already covers the box")
    func centreEqualsCrop() throws {
        let source = TestBitmaps.gradient(width: 300, height: 100)
        let smart = try Self.processor("smartCrop(100x100, strategy: center)").process(source)
        let crop = try ImageProcessors.Crop(size: PixelSize(width: 100, height: 100)).process(source)
        #expect(smart.size == PixelSize(width: 100, height: 100))
        #expect(smart.storage == crop.storage)
    }

    @Test("center on a larger image equals resize(fill) centred")
    func centreEqualsFill() throws {
        let source = TestBitmaps.noise(width: 240, height: 120)
        let smart = try Self.processor("smartCrop(50x50, strategy: center)").process(source)
        let fill = try ImageProcessors.Resize(size: PixelSize(width: 50, height: 50), mode: .fill).process(source)
        #expect(smart.storage == fill.storage)
    }

    @Test(
        "attention and entropy keep a salient disc on grey",
        arguments: [
            ("attention", (224 as UInt8, 172 as UInt8, 140 as UInt8)), ("attention", (220, 30, 40)),
            ("entropy", (224, 172, 140)), ("entropy", (30, 60, 220)),
        ])
    func salientDisc(strategy: String, color: (UInt8, UInt8, UInt8)) throws {
        // 600×200 covers 100×100 at 300×100: the disc (centre 480, 100, radius 24) lands at
        // (240, 50) with radius 12, so a window keeps it whole when its x is in 152…228.
        let source = Self.disc(color, width: 600, height: 200, at: (480, 100), radius: 24)
        let smart = try Self.processor("smartCrop(100x100, strategy: \(strategy))")
        let (rect, covering) = try smart.window(in: source)
        #expect(covering == PixelSize(width: 300, height: 100))
        #expect(rect.y == 0 && rect.size == PixelSize(width: 100, height: 100))
        #expect((152...228).contains(rect.x), "window \(rect)")
        let output = try smart.process(source)
        #expect(output.size == PixelSize(width: 100, height: 100))
    }

    @Test("attention frames the one salient spot, not a wide area of middling interest")
    func attentionPrefersThePeak() throws {
        // The left half is a faintly tinted flat (saturation 0.15 everywhere): a window over it has
        // a greater total score than one over the red disc on the right, whose pixels score highest.
        let disc = Self.disc((220, 30, 40), width: 600, height: 200, at: (480, 100), radius: 24)
        let source = try Bitmap(width: 600, height: 200, isOpaque: true) { bytes, rowBytes in
            disc.withUnsafeBytes { from in
                for y in 0..<200 {
                    for x in 0..<600 {
                        let i = y * rowBytes + x * 4
                        let j = y * disc.bytesPerRow + x * 4
                        (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]) =
                            x < 300 ? (150, 128, 128, 255) : (from[j], from[j + 1], from[j + 2], 255)
                    }
                }
            }
        }
        let (rect, _) = try Self.processor("smartCrop(100x100)").window(in: source)
        #expect((152...228).contains(rect.x), "window \(rect)")
    }

    @Test("attention prefers warm colours to green ones of the same luminance", arguments: [false, true])
    func attentionPrefersWarmth(mirrored: Bool) throws {
        // One half red, the other green, both of luminance Y 13.9: the only edge is the boundary in
        // the middle, so a window there is what edges alone would choose. The colour terms (skin
        // likeness and CIELAB a*) make the red half the subject: foliage green is background.
        let source = try Bitmap(width: 600, height: 200, isOpaque: true) { bytes, rowBytes in
            for y in 0..<200 {
                for x in 0..<600 {
                    let i = y * rowBytes + x * 4
                    (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]) = (x < 300) == mirrored ? (200, 40, 40, 255) : (40, 115, 40, 255)
                }
            }
        }
        // The covering size is 300×100; the red half is x 0…150 (mirrored) or 150…300.
        let (rect, _) = try Self.processor("smartCrop(100x100)").window(in: source)
        if mirrored {
            #expect(rect.x + rect.width <= 150, "window \(rect)")
        } else {
            #expect(rect.x >= 150, "window \(rect)")
        }
    }

    @Test("A featureless image is cropped in the middle", arguments: ["attention", "entropy"])
    func featureless(strategy: String) throws {
        let source = TestBitmaps.solid(RGBAColor(red: 90, green: 90, blue: 90, alpha: 255), width: 400, height: 100)
        let (rect, _) = try Self.processor("smartCrop(100x100, strategy: \(strategy))").window(in: source)
        #expect(rect == PixelRect(x: 150, y: 0, width: 100, height: 100))
    }

    @Test("The window slides vertically on a tall image and the output is always the box")
    func tall() throws {
        let source = Self.disc((220, 30, 40), width: 80, height: 320, at: (40, 40), radius: 10)
        let smart = try Self.processor("smartCrop(40x40)")
        let (rect, covering) = try smart.window(in: source)
        #expect(covering == PixelSize(width: 40, height: 160))
        // The disc lands at y 15…25 of the 40×160 covering size: a 40-high window keeps it at y ≤ 15.
        #expect(rect.x == 0 && rect.y <= 15, "window \(rect)")
        #expect(try smart.process(source).size == PixelSize(width: 40, height: 40))
    }

    @Test("The decoder is asked to shrink on load as resize(fill) asks")
    func decodeHint() throws {
        let smart = ImageProcessors.SmartCrop(size: PixelSize(width: 300, height: 200))
        #expect(smart.decodeHint == ImageProcessors.Resize(size: PixelSize(width: 300, height: 200), mode: .fill).decodeHint)
    }
}
