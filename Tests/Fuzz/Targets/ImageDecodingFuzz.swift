import DarkroomChains
import DarkroomCodecs
import DarkroomCore

/// Sniffing, header reading and full decoding of any bytes, in every format Darkroom reads, under
/// small limits so legitimate inputs stay cheap under AddressSanitizer. Strict and lenient decoding
/// alternate with the first byte's lowest bit; inputs of odd length are decoded for a 16×16 box,
/// so shrink-on-load (JPEG's DCT scales and its 1/8 scan pruning, WebP's scaled decode) is fuzzed too.
enum ImageDecodingFuzz {
    /// 4 MP and 64 frames: the harness's limits (the product's are 50 MP and 1,000 frames).
    static let limits = DecodeLimits(maxPixels: 4_000_000, maxDimension: 8_192, maxFrames: 64, maxAnimationPixels: 16_000_000)

    static let target = FuzzTarget(
        name: "decode",
        summary: "JPEG, PNG, WebP, GIF and AVIF: sniffing, header, decode (strict and lenient, full size and shrink-on-load), under 4 MP"
    ) { bytes in
        let input = Array(bytes)
        var limits = Self.limits
        limits.strict = (input.first ?? 0) & 1 == 0
        let image = EncodedImage(bytes: input, sourceName: "fuzz")
        let registry = CoderRegistry.standard
        do throws(CodecError) {
            let info = try registry.readInfo(image)
            let hint = input.count % 2 == 1 ? DecodeHint(box: PixelSize(width: 16, height: 16), mode: .fit) : nil
            let decoded = try registry.decode(image, options: DecodeOptions(hint: hint, limits: limits))
            // A decode never returns a bitmap over the limits it was given.
            let size = decoded.bitmap.size
            if size.width * size.height > limits.maxPixels {
                FuzzFailure.stop("decode", "decoded \(size.width)x\(size.height) under a \(limits.maxPixels)-pixel limit")
            }
            _ = info
        } catch {
            // A typed CodecError is the expected end for bad bytes.
        }
    }
}
