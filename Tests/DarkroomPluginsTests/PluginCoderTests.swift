import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPlugins
import DarkroomTestSupport
import Foundation
import Testing

/// A plugin's coder (the test plugin's `tpix` format: a 12-byte header, then straight RGBA rows).
@Suite("Plugin coders")
struct PluginCoderTests {
    static let directory = Result { try PluginTestKit.directory("coders") }

    private func coders() throws -> CoderRegistry {
        var catalog = PluginCatalog()
        PluginLoader.load(PluginSearchPath(directories: [try Self.directory.get()]), into: &catalog)
        return CoderRegistry(decoders: CoderRegistry.standard.decoders + catalog.coders.decoders, encoders: catalog.coders.encoders)
    }

    /// A tpix file of `width`×`height` whose pixels are `pixel(x, y)` (straight RGBA).
    static func tpix(width: Int, height: Int, pixel: (Int, Int) -> [UInt8] = { x, y in [UInt8(x * 9), UInt8(y * 9), 7, 128] }) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        return Array("TPIX".utf8) + le32(width) + le32(height) + (0..<height).flatMap { y in (0..<width).flatMap { x in pixel(x, y) } }
    }

    @Test("A plugin format is sniffed from its bytes and decoded into a premultiplied bitmap")
    func decodes() throws {
        let decoded = try coders().decode(EncodedImage(bytes: Self.tpix(width: 5, height: 4), sourceName: "a.tpix"))
        #expect(decoded.info.format == ImageFormat(rawValue: "tpix"))
        #expect(decoded.bitmap.size == PixelSize(width: 5, height: 4))
        #expect(decoded.bitmap.isOpaque == false)
        #expect(decoded.bitmap.premultipliedPixel(x: 2, y: 3) == (9, 14, 4, 128))
    }

    @Test("The host checks the size the header declares before it allocates anything")
    func limitsFromTheHeader() throws {
        let bomb = Array(Self.tpix(width: 1, height: 1).prefix(4)) + [0x60, 0xEA, 0, 0, 0x60, 0xEA, 0, 0]  // 60000×60000, no pixels
        #expect {
            try coders().decode(EncodedImage(bytes: bomb, sourceName: "bomb.tpix"))
        } throws: { error in
            (error as? CodecError)?.code == .tooLarge
        }
    }

    @Test("A plugin's decode error names the coder and the file")
    func decodeError() throws {
        let cut = Array(Self.tpix(width: 4, height: 4).prefix(20))
        #expect {
            try coders().decode(EncodedImage(bytes: cut, sourceName: "cut.tpix"))
        } throws: { error in
            (error as? CodecError)?.description.contains("plugin coder 'tpix' (testkit 1.0.0) failed: pixels cut short") == true
        }
    }

    @Test("A plugin format is written from straight RGBA through the host's sink, and reads back the same")
    func encodes() throws {
        let coders = try coders()
        let format = try #require(coders.writableFormat(named: "tpix"))
        let source = Self.tpix(width: 6, height: 3) { x, y in [UInt8(x * 40), UInt8(y * 80), 200, 255] }
        let bitmap = try coders.decode(EncodedImage(bytes: source, sourceName: "a.tpix")).bitmap
        #expect(bitmap.isOpaque)
        let written = try coders.encoder(for: format).encode(bitmap, options: EncodeOptions())
        #expect(written == source)
        #expect(coders.writableFormatNames == "tpix")
    }
}
