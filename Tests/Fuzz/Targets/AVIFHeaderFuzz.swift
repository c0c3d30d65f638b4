import DarkroomChains
import DarkroomCodecs
import DarkroomCore

/// The AVIF header walk (`ftyp` brands, `meta`'s primary item and its `ispe`/`irot`/`imir`, a
/// sequence's `tkhd` and `stsz`) and the decode behind it, under the image targets' small limits.
/// Promises: sniffing and reading never crash; a header that passes is within the limits; a decode
/// returns the upright size the header announced.
enum AVIFHeaderFuzz {
    static let target = FuzzTarget(
        name: "avif",
        summary: "AVIF: brand routing, HEIF header walk (ispe, irot/imir, stsz), readInfo and decode under 4 MP"
    ) { bytes in
        let input = Array(bytes)
        var limits = ImageDecodingFuzz.limits
        limits.strict = (input.first ?? 0) & 1 == 0
        _ = ImageFormat.sniff(input)
        let image = EncodedImage(bytes: input, sourceName: "fuzz")
        let decoder = AVIFDecoder()
        do throws(CodecError) {
            let info = try decoder.readInfo(image, limits: limits)
            let size = info.storedSize
            if size.width <= 0 || size.height <= 0 || size.width * size.height > limits.maxPixels || info.frameCount > limits.maxFrames {
                FuzzFailure.stop("avif", "header passed with \(size.width)x\(size.height), \(info.frameCount) frames, over the limits")
            }
            let decoded = try decoder.decode(image, options: DecodeOptions(limits: limits))
            if decoded.bitmap.size != decoded.info.uprightSize {
                FuzzFailure.stop("avif", "decoded \(decoded.bitmap.size), but the image is \(decoded.info.uprightSize) upright")
            }
        } catch {
            // A typed CodecError is the expected end for bad bytes.
        }
    }
}
