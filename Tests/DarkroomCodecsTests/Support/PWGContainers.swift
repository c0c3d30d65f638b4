import CSpng
import DarkroomCore

/// Looks inside encoded files the way an independent reader would: chunk lists, and libspng's
/// own straight-alpha decode (so a test can see what a PNG stores, not what Darkroom makes of it).
enum PWGContainers {
    /// The chunk types of a PNG, in order.
    static func pngChunks(_ bytes: [UInt8]) -> [String] {
        var types: [String] = []
        var i = 8
        while i + 8 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            types.append(String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self))
            i += 12 + length
        }
        return types
    }

    /// The IHDR colour type (2 = RGB, 6 = RGBA).
    static func pngColorType(_ bytes: [UInt8]) -> UInt8? {
        bytes.count > 25 ? bytes[25] : nil
    }

    /// The chunk FourCCs of a RIFF WebP, in order.
    static func webpChunks(_ bytes: [UInt8]) -> [String] {
        var types: [String] = []
        var i = 12
        while i + 8 <= bytes.count {
            let length = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            types.append(String(decoding: bytes[i..<(i + 4)], as: UTF8.self))
            i += 8 + length + (length & 1)
        }
        return types
    }

    /// A PNG decoded by libspng to straight RGBA8, bypassing Darkroom's decoder.
    static func straightRGBA(png bytes: [UInt8]) -> [UInt8]? {
        guard let ctx = spng_ctx_new(0) else { return nil }
        defer { spng_ctx_free(ctx) }
        return bytes.withUnsafeBytes { buffer -> [UInt8]? in
            guard spng_set_png_buffer(ctx, buffer.baseAddress, buffer.count) == 0 else { return nil }
            var length = 0
            guard spng_decoded_image_size(ctx, Int32(SPNG_FMT_RGBA8.rawValue), &length) == 0 else { return nil }
            var out = [UInt8](repeating: 0, count: length)
            let status = out.withUnsafeMutableBytes {
                spng_decode_image(ctx, $0.baseAddress, length, Int32(SPNG_FMT_RGBA8.rawValue), Int32(SPNG_DECODE_TRNS.rawValue))
            }
            return status == 0 ? out : nil
        }
    }
}
