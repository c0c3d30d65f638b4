import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

/// The HEIC module on the phone-shaped fixtures of `Tests/Fixtures/HEIF` (grids assembled from
/// heif-enc tiles by `make-heif-fixtures.py`): every good one decodes to libheif's own pixels
/// (`heif-convert`, which applies the same transforms), the profile is kept on request, and the
/// hostile ones end in coded errors.
@Suite("HEIC coder module on grid fixtures", .realTime)
struct HEICModuleGridTests {
    static func fixture(_ name: String) throws -> EncodedImage {
        let path = PluginBuilds.repositoryRoot + "/Tests/Fixtures/HEIF/" + name
        return EncodedImage(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), sourceName: name)
    }

    /// libheif's decode of the fixture, as a PNG read back by Darkroom.
    static func reference(_ name: String) throws -> Bitmap {
        let directory = try CPluginCompiler.makeDirectory("heif-reference")
        let png = directory + "/" + name + ".png"
        _ = try PluginBuilds.run("heif-convert", [PluginBuilds.repositoryRoot + "/Tests/Fixtures/HEIF/" + name, png])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: png)))
        return try CoderRegistry.standard.decode(EncodedImage(bytes: bytes, sourceName: png)).bitmap
    }

    @Test(
        "Grids (tiles decoded on idle cores), a cropped grid, irot beside an EXIF orientation, and imir decode to libheif's own pixels",
        arguments: [
            ("grid-2x2.heic", 128, 128), ("grid-3x2-cropped.heic", 160, 100), ("grid-irot1-exif6.heic", 64, 128),
            ("grid-imir0.heic", 128, 64),
        ])
    func decodesLikeLibheif(name: String, width: Int, height: Int) throws {
        let decoded = try HEICModuleTests.coders().decode(try Self.fixture(name)).bitmap
        #expect(decoded.size == PixelSize(width: width, height: height))
        let reference = try Self.reference(name)
        #expect(reference.size == decoded.size)
        var worst = 0
        for y in stride(from: 0, to: height, by: 3) {
            for x in stride(from: 0, to: width, by: 3) {
                let a = decoded.pixel(x: x, y: y)
                let b = reference.pixel(x: x, y: y)
                worst = max(worst, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
            }
        }
        // The same decoder underneath; only the YUV → RGB rounding may differ.
        #expect(worst <= 3, "\(name): largest channel difference \(worst)")
    }

    @Test("A grid's ICC profile is converted by default and kept (and handed on) with keep: icc")
    func keepsProfile() throws {
        let coders = try HEICModuleTests.coders()
        let image = try Self.fixture("grid-2x2-icc.heic")
        let converted = try coders.decode(image)
        #expect(converted.info.hasICCProfile)
        #expect(converted.metadata.icc == nil)
        let kept = try coders.decode(image, options: DecodeOptions(keep: [.icc]))
        #expect(kept.metadata.icc?.count == 524)
        #expect(kept.bitmap.pixel(x: 100, y: 100) != converted.bitmap.pixel(x: 100, y: 100), "kept pixels are not converted")
    }

    @Test(
        "Hostile phone-shaped files end in coded errors, never a crash",
        arguments: ["hostile-tile-bomb.heic", "hostile-ispe-65535.heic", "hostile-exif-length.heic"])
    func hostile(name: String) throws {
        let coders = try HEICModuleTests.coders()
        #expect {
            _ = try coders.decode(try Self.fixture(name))
        } throws: { error in
            error is CodecError
        }
    }
}
