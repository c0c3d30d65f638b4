import Foundation
import Testing

@testable import DarkroomCodecs

/// The HEIC and AVIF files of `Tests/Fixtures/HEIF` (made and checked against libheif by
/// `make-heif-fixtures.py` there), read from the repository by path.
enum HEIFFixtures {
    /// `Tests/Fixtures/HEIF`: this file is `Tests/DarkroomCodecsTests/HEIF/HEIFFixtureTests.swift`.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/HEIF")

    static let heic = [
        "grid-2x2.heic", "grid-3x2-cropped.heic", "grid-irot1-exif6.heic", "grid-imir0.heic", "grid-2x2-icc.heic", "alpha.heic",
        "hostile-tile-bomb.heic", "hostile-ispe-65535.heic", "hostile-exif-length.heic",
    ]
    static let avif = [
        "avif-irot1-exif6.avif", "avif-imir0.avif", "avif-imir1.avif", "avif-10bit.avif", "avif-12bit.avif", "avif-alpha.avif",
        "avif-sequence-3.avif",
    ]

    /// The bytes of fixture `name`.
    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }
}

@Suite("HEIF fixtures: every file is told apart by its brand")
struct HEIFFixtureTests {
    @Test("Each HEIC fixture, hostile ones too, sniffs as HEIC", arguments: HEIFFixtures.heic)
    func heic(name: String) throws {
        let bytes = try HEIFFixtures.bytes(name)
        #expect(bytes.count < 30_000)
        #expect(ImageFormat.sniff(bytes) == .heic)
        #expect(HEIFBrand.format(of: bytes) == .heic)
    }

    @Test("Each AVIF fixture, the sequence too, sniffs as AVIF", arguments: HEIFFixtures.avif)
    func avif(name: String) throws {
        let bytes = try HEIFFixtures.bytes(name)
        #expect(bytes.count < 30_000)
        #expect(ImageFormat.sniff(bytes) == .avif)
    }

    @Test("The assembled grids' primary item is a grid of hvc1 tiles, which the walker reads through pitm and iinf")
    func gridPrimaryItem() throws {
        for name in HEIFFixtures.heic where name.hasPrefix("grid-") || name.hasPrefix("hostile-tile") {
            // For a grid, the type of its tiles.
            #expect(HEIFPrimaryItem.codingType(in: try HEIFFixtures.bytes(name)) == "hvc1", "\(name)")
        }
        #expect(HEIFPrimaryItem.codingType(in: try HEIFFixtures.bytes("alpha.heic")) == "hvc1")
        #expect(HEIFPrimaryItem.codingType(in: try HEIFFixtures.bytes("avif-alpha.avif")) == "av01")
    }
}
