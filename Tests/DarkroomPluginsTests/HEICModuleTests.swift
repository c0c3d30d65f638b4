import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPlugins
import DarkroomTestSupport
import Foundation
import Testing

/// The HEIC coder module (`Plugins/HEIC/heic.c`), compiled against libheif as an operator builds
/// it, loaded from a plugins directory, decoding the committed `Tests/Fixtures/HEIC` files (made
/// by their `make-heic-fixtures.sh` with heif-enc 1.15).
@Suite("HEIC coder module")
struct HEICModuleTests {
    static let directory = Result {
        let directory = try CPluginCompiler.makeDirectory("heic")
        try CPluginCompiler.compile(CPluginCompiler.heicModule, packages: ["libheif"], into: directory, name: CoderRegistry.heicModuleFile)
        return directory
    }

    /// The standard coders with the module's.
    static func coders() throws -> CoderRegistry {
        var catalog = PluginCatalog()
        PluginLoader.load(PluginSearchPath(directories: [try directory.get()]), into: &catalog)
        return CoderRegistry(decoders: CoderRegistry.standard.decoders + catalog.coders.decoders, encoders: CoderRegistry.standard.encoders)
    }

    static func fixture(_ name: String) throws -> EncodedImage {
        let path = PluginBuilds.repositoryRoot + "/Tests/Fixtures/HEIC/" + name
        return EncodedImage(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), sourceName: name)
    }

    @Test("The module loads as coder 'heic', decodes pixels, and makes the registry decode HEIC")
    func loads() throws {
        let coders = try Self.coders()
        #expect(coders.decodes(.heic))
        #expect(!CoderRegistry.standard.decodes(.heic))
    }

    @Test("A heif-enc file (a one-tile grid with an ICC profile) decodes at its size, opaque, its profile applied")
    func decodesPlain() throws {
        let decoded = try Self.coders().decode(
            try Self.fixture("plain-64x43.heic"), options: DecodeOptions(hint: DecodeHint(box: PixelSize(width: 8, height: 8), mode: .fit)))
        #expect(decoded.info.format == .heic)
        #expect(decoded.bitmap.size == PixelSize(width: 64, height: 43))
        #expect(decoded.bitmap.isOpaque)
        #expect(decoded.info.hasICCProfile)
        // libheif's own decode of the top-left pixel is (145, 121, 111); the profile is sRGB-like.
        let pixel = decoded.bitmap.pixel(x: 0, y: 0)
        #expect(abs(Int(pixel.red) - 145) <= 6 && abs(Int(pixel.green) - 121) <= 6 && abs(Int(pixel.blue) - 111) <= 6, "\(pixel)")
    }

    @Test("Alpha is kept: a constant alpha of 128 reads back as 128")
    func decodesAlpha() throws {
        let decoded = try Self.coders().decode(try Self.fixture("alpha-48x48.heic"))
        #expect(decoded.info.hasAlpha)
        #expect(!decoded.bitmap.isOpaque)
        #expect(abs(Int(decoded.bitmap.pixel(x: 20, y: 20).alpha) - 128) <= 1)
    }

    @Test("An EXIF orientation inside a HEIF is ignored: only irot/imir orient, so nothing is rotated twice")
    func exifOrientationIgnored() throws {
        let coders = try Self.coders()
        let image = try Self.fixture("exif-orientation-6-64x43.heic")
        let info = try coders.readInfo(image)
        #expect(info.orientation == .up)
        #expect(info.uprightSize == PixelSize(width: 64, height: 43))
        #expect(try coders.decode(image).bitmap.size == PixelSize(width: 64, height: 43))
    }

    @Test("The Exif item and the XMP packet reach the host when the job keeps them, and only then")
    func metadataThroughTheABI() throws {
        let coders = try Self.coders()
        let image = try Self.fixture("exif-orientation-6-64x43.heic")
        let kept = try coders.decode(image, options: DecodeOptions(keep: [.exif, .xmp])).metadata
        // The TIFF structure, found behind the HEIF Exif item's 4-byte offset.
        let mark = kept.exif.map { Array($0.prefix(4)) }
        #expect(mark == [0x49, 0x49, 0x2A, 0x00] || mark == [0x4D, 0x4D, 0x00, 0x2A])
        #expect(kept.xmp.map { String(decoding: $0, as: UTF8.self).contains("xmpmeta") } == true)
        let stripped = try coders.decode(image).metadata
        #expect(stripped.exif == nil && stripped.xmp == nil)
        // copyright alone still needs the EXIF (its Artist and Copyright); xmp alone does not.
        #expect(try coders.decode(image, options: DecodeOptions(keep: [.copyright])).metadata.exif != nil)
        #expect(try coders.decode(image, options: DecodeOptions(keep: [.xmp])).metadata.exif == nil)
    }

    @Test("irot rotates the primary image once, and the EXIF orientation beside it is ignored: 64×43 becomes 43×64")
    func irotWithExifOrientation() throws {
        let coders = try Self.coders()
        let rotated = try Self.fixture("irot-90-exif-6-43x64.heic")
        #expect(try coders.readInfo(rotated).uprightSize == PixelSize(width: 43, height: 64))
        let turned = try coders.decode(rotated).bitmap
        let plain = try coders.decode(try Self.fixture("exif-orientation-6-64x43.heic")).bitmap
        #expect(turned.size == PixelSize(width: 43, height: 64))
        // A quarter turn anticlockwise: pixel (x, y) of the result is pixel (63 − y, x) of the original.
        var mismatches = 0
        for y in stride(from: 0, to: 64, by: 7) {
            for x in stride(from: 0, to: 43, by: 5) where turned.pixel(x: x, y: y) != plain.pixel(x: 63 - y, y: x) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test("Without the module a HEIC source is refused with image.needs-module, naming the module to load")
    func refusedWithoutModule() throws {
        #expect {
            try CoderRegistry.standard.decode(try Self.fixture("plain-64x43.heic"))
        } throws: { error in
            guard let error = error as? CodecError else { return false }
            return error.code == .needsModule && error.description.contains(CoderRegistry.heicModuleFile)
        }
    }

    @Test("An AVIF is not the module's: it sniffs only HEVC-coded HEIF")
    func avifIsNotHEIC() throws {
        let coders = try Self.coders()
        let heic = try Self.fixture("plain-64x43.heic").bytes
        // The same file with the major and compatible brands of AVIF: routed away from the module.
        var avif = heic
        for (offset, brand) in [(8, "avif"), (16, "mif1"), (20, "avif")] { avif.replaceSubrange(offset..<offset + 4, with: Array(brand.utf8)) }
        #expect(coders.decoders.first { $0.format == .heic }?.canDecode(heic) == true)
        #expect(coders.decoders.first { $0.format == .heic }?.canDecode(avif) == false)
    }

    @Test("Hostile headers end in coded errors from the host's own box walk, before the module parses them")
    func hostileHeaders() throws {
        let coders = try Self.coders()
        let plain = try Self.fixture("plain-64x43.heic").bytes
        // An absurd ispe: every ispe property of the file says 1,000,000 × 1,000,000.
        var huge = plain
        for offset in HEICFixtureBoxes.offsets(of: "ispe", in: plain) {
            huge.replaceSubrange(offset + 12..<offset + 20, with: [0, 0x0F, 0x42, 0x40, 0, 0x0F, 0x42, 0x40])
        }
        #expect(HEICFixtureBoxes.code { _ = try coders.readInfo(EncodedImage(bytes: huge, sourceName: "huge.heic")) } == .tooLarge)
        #expect(HEICFixtureBoxes.code { try HEICHeaderLimits.check(huge, limits: DecodeLimits(), source: "huge.heic") } == .tooLarge)
        // A tile-count bomb: a grid whose dimg reference lists 60,000 tiles.
        let bomb = HEICFixtureBoxes.tileBomb(tiles: 60_000)
        #expect(HEICFixtureBoxes.code { try HEICHeaderLimits.check(bomb, limits: DecodeLimits(), source: "bomb.heic") } == .tooLarge)
        #expect(HEICFixtureBoxes.code { _ = try coders.decode(EncodedImage(bytes: bomb, sourceName: "bomb.heic")) } == .tooLarge)
        #expect(HEICFixtureBoxes.code { try HEICHeaderLimits.check(plain, limits: DecodeLimits(), source: "plain.heic") } == nil)
    }
}
