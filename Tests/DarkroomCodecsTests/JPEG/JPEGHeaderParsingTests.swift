import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("JPEG header parsing: Exif orientation and ICC chunks")
struct JPEGHeaderParsingTests {
    /// A TIFF block with IFD0 holding the given 12-byte entries, in either byte order.
    static func tiff(bigEndian: Bool, entries: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt32)], ifdOffset: UInt32 = 8) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) }
        var out: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(ifdOffset)
        out += u16(UInt16(entries.count))
        for e in entries {
            out += u16(e.tag) + u16(e.type) + u32(e.count)
            out += e.type == 3 ? u16(UInt16(e.value)) + [0, 0] : u32(e.value)
        }
        return out + u32(0)
    }

    static func orientation(_ tiff: [UInt8]) -> ImageOrientation? {
        tiff.withUnsafeBufferPointer { EXIFOrientationReader.orientation(tiff: $0) }
    }

    @Test("The orientation tag is read in both byte orders, among other tags")
    func byteOrders() {
        for bigEndian in [false, true] {
            for value in 1...8 {
                let block = Self.tiff(bigEndian: bigEndian, entries: [(0x010F, 2, 4, 0), (0x0112, 3, 1, UInt32(value)), (0x0131, 2, 4, 0)])
                #expect(Self.orientation(block)?.rawValue == value, "bigEndian \(bigEndian) value \(value)")
            }
        }
    }

    @Test("Hostile Exif blocks yield no orientation: offsets outside, huge counts, wrong types, values out of range, bad headers")
    func hostileExif() {
        #expect(Self.orientation(Self.tiff(bigEndian: false, entries: [(0x0112, 3, 1, 6)], ifdOffset: 0xFFFF_FFF0)) == nil)
        #expect(Self.orientation(Self.tiff(bigEndian: true, entries: [(0x0112, 3, 1, 6)], ifdOffset: 4)) == nil)
        #expect(Self.orientation(Self.tiff(bigEndian: false, entries: [(0x0112, 3, 1, 9)])) == nil)
        #expect(Self.orientation(Self.tiff(bigEndian: false, entries: [(0x0112, 3, 1, 0)])) == nil)
        #expect(Self.orientation(Self.tiff(bigEndian: false, entries: [(0x0112, 2, 1, 6)])) == nil)
        #expect(Self.orientation(Self.tiff(bigEndian: false, entries: [(0x0112, 3, 0, 6)])) == nil)
        #expect(Self.orientation(Self.tiff(bigEndian: false, entries: [(0x0112, 4, 1, 6)])) == .right)
        // An entry count of 65535 in a tiny block: only the entries that fit are read.
        var lying = Self.tiff(bigEndian: false, entries: [(0x0112, 3, 1, 3)])
        lying[8] = 0xFF
        lying[9] = 0xFF
        #expect(Self.orientation(lying) == .down)
        #expect(Self.orientation([0x49, 0x49, 42, 0]) == nil)
        #expect(Self.orientation([0x49, 0x4D, 42, 0, 8, 0, 0, 0, 0, 0]) == nil)
        #expect(Self.orientation([]) == nil)
        // Every truncation of a valid block is safe.
        let valid = Self.tiff(bigEndian: true, entries: [(0x0112, 3, 1, 8)])
        for length in 0..<valid.count {
            let cut = Array(valid[0..<length])
            #expect(Self.orientation(cut) == nil || length >= 22)
        }
    }

    /// An `ICC_PROFILE` APP2 payload.
    static func chunk(_ sequence: UInt8, of count: UInt8, _ bytes: [UInt8]) -> [UInt8] {
        Array("ICC_PROFILE".utf8) + [0, sequence, count] + bytes
    }

    static func assemble(_ payloads: [[UInt8]]) -> JPEGICCProfile {
        var assembler = JPEGICCChunkAssembler()
        for payload in payloads { payload.withUnsafeBufferPointer { assembler.add(segment: $0) } }
        return assembler.profile()
    }

    @Test("ICC chunks are joined by sequence number, whatever their order in the file")
    func chunkOrder() {
        #expect(Self.assemble([Self.chunk(2, of: 3, [4, 5]), Self.chunk(3, of: 3, [6]), Self.chunk(1, of: 3, [1, 2, 3])]) == .complete([1, 2, 3, 4, 5, 6]))
        #expect(Self.assemble([Self.chunk(1, of: 1, [9, 9])]) == .complete([9, 9]))
        #expect(Self.assemble([]) == .absent)
        #expect(Self.assemble([Array("XMP".utf8)]) == .absent)
    }

    @Test("ICC chunk nonsense makes the profile malformed: sequence 0, beyond the count, repeated, missing, disagreeing counts")
    func chunkNonsense() {
        for payloads in [
            [Self.chunk(0, of: 1, [1])],
            [Self.chunk(2, of: 1, [1])],
            [Self.chunk(1, of: 2, [1]), Self.chunk(1, of: 2, [1])],
            [Self.chunk(1, of: 3, [1]), Self.chunk(3, of: 3, [1])],
            [Self.chunk(1, of: 2, [1]), Self.chunk(2, of: 3, [1])],
            [Self.chunk(1, of: 0, [1])],
        ] {
            guard case .malformed(let reason) = Self.assemble(payloads) else {
                Issue.record("expected malformed for \(payloads)")
                continue
            }
            #expect(reason.contains("ICC profile"))
        }
    }

    @Test("The marker scanner finds SOF size, components, progressive flag, Adobe transform and first scan")
    func scannerFields() throws {
        let progressive = try JPEGMarkerScanner.scan(JPEGTestKit.fixture("scene-progressive.jpg"), source: "p")
        #expect(progressive.size == PixelSize(width: 96, height: 64))
        #expect(progressive.componentCount == 3)
        #expect(progressive.isProgressive)
        #expect(progressive.adobeTransform == nil)
        #expect(progressive.firstScanOffset != nil)
        let cmyk = try JPEGMarkerScanner.scan(JPEGTestKit.fixture("cmyk-adobe.jpg"), source: "c")
        #expect(cmyk.componentCount == 4)
        #expect(cmyk.adobeTransform == 2)
        let gray = try JPEGMarkerScanner.scan(JPEGTestKit.fixture("scene-gray.jpg"), source: "g")
        #expect(gray.componentCount == 1)
        #expect(!gray.isProgressive)
    }
}
