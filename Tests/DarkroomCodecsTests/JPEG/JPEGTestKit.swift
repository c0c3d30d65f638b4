import DarkroomCodecs
import DarkroomCore
import Foundation
import Testing

/// Fixtures and measurements for the JPEG and colour tests (see Fixtures/jpeg/README.md).
enum JPEGTestKit {
    /// The bytes of `Fixtures/jpeg/<name>`.
    static func fixture(_ name: String) throws -> [UInt8] {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return try [UInt8](Data(contentsOf: folder.appendingPathComponent("jpeg").appendingPathComponent(name)))
    }

    static func image(_ name: String) throws -> EncodedImage {
        EncodedImage(bytes: try fixture(name), sourceName: name)
    }

    /// Decodes a fixture with default (strict) options unless told otherwise.
    static func decode(_ name: String, hint: DecodeHint? = nil, strict: Bool = true) throws -> DecodedImage {
        try JPEGDecoder().decode(image(name), options: DecodeOptions(hint: hint, limits: DecodeLimits(strict: strict)))
    }

    /// Reads a binary PPM (P6, maxval 255) fixture into an opaque bitmap.
    static func ppm(_ name: String) throws -> Bitmap {
        let bytes = try fixture(name)
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x0A) { index += 1 }
            var value = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            fields.append(value)
        }
        index += 1
        let (width, height) = (fields[0], fields[1])
        let rgb = Array(bytes[index..<(index + width * height * 3)])
        return try Bitmap(width: width, height: height, isOpaque: true) { buffer, rowBytes in
            for i in 0..<(width * height) {
                buffer[i * 4] = rgb[i * 3]
                buffer[i * 4 + 1] = rgb[i * 3 + 1]
                buffer[i * 4 + 2] = rgb[i * 3 + 2]
                buffer[i * 4 + 3] = 255
            }
        }
    }

    /// PSNR in dB over the colour channels of two equal-sized opaque bitmaps; 99 when identical.
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.size == b.size, "PSNR needs equal sizes, got \(a.size) and \(b.size)")
        var sum = 0.0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.premultipliedPixel(x: x, y: y)
                let q = b.premultipliedPixel(x: x, y: y)
                for (u, v) in [(p.r, q.r), (p.g, q.g), (p.b, q.b)] {
                    let d = Double(u) - Double(v)
                    sum += d * d
                }
            }
        }
        let mse = sum / Double(a.width * a.height * 3)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// True when every channel of the pixel at (x, y) is within `tolerance` of `expected`.
    static func pixel(_ bitmap: Bitmap, x: Int, y: Int, isNear expected: (Int, Int, Int), tolerance: Int = 8) -> Bool {
        let p = bitmap.premultipliedPixel(x: x, y: y)
        return abs(Int(p.r) - expected.0) <= tolerance && abs(Int(p.g) - expected.1) <= tolerance
            && abs(Int(p.b) - expected.2) <= tolerance && p.a == 255
    }

    static func rgb(_ bitmap: Bitmap, x: Int, y: Int) -> (Int, Int, Int) {
        let p = bitmap.premultipliedPixel(x: x, y: y)
        return (Int(p.r), Int(p.g), Int(p.b))
    }

    /// The JPEG with every segment of `marker` removed (APP2 to drop a profile, APP14 the Adobe flag).
    static func removingSegments(_ marker: UInt8, from jpeg: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF, jpeg[i + 1] != 0xDA {
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if jpeg[i + 1] != marker { out += jpeg[i..<(i + 2 + length)] }
            i += 2 + length
        }
        return out + jpeg[i...]
    }

    /// The JPEG with `segment` (a full marker segment, FF xx LL LL …) inserted after SOI.
    static func inserting(_ segment: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    /// A marker segment with the given payload.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// The offset of the first `FF marker` pair at or after `start`.
    static func offset(of marker: UInt8, in jpeg: [UInt8], from start: Int = 2) -> Int? {
        var i = start
        while i + 1 < jpeg.count {
            if jpeg[i] == 0xFF && jpeg[i + 1] == marker { return i }
            i += 1
        }
        return nil
    }

    /// The `CodecError` `body` throws, or nil when it throws nothing (or something else).
    static func codecError(_ body: () throws -> Void) -> CodecError? {
        do {
            try body()
            return nil
        } catch let error as CodecError {
            return error
        } catch {
            return nil
        }
    }

    /// The code of the `CodecError` `body` throws, or nil when it throws nothing (or something else).
    static func errorCode(_ body: () throws -> Void) -> CodecError.Code? {
        codecError(body)?.code
    }

    /// A deterministic noise generator (64-bit LCG), for hostile-input tests.
    struct Noise {
        var state: UInt64
        mutating func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }
}
