import DarkroomCodecs
import DarkroomCore

/// Animated GIF and WebP: the header walk, then every frame through the streaming reader, under
/// the harness's limits (64 frames, 16 MP across frames).
enum AnimationFuzz {
    static let target = FuzzTarget(
        name: "animation",
        summary: "GIF record walk and WebP container/demux: animation info, then every frame, under 64 frames and 16 MP"
    ) { bytes in
        let input = Array(bytes)
        guard let decoder = AnimationDecoders.decoder(for: input) else { return }
        var limits = ImageDecodingFuzz.limits
        limits.strict = (input.last ?? 0) & 1 == 0
        let image = EncodedImage(bytes: input, sourceName: "fuzz")
        do throws(CodecError) {
            let info = try decoder.readAnimationInfo(image, limits: limits)
            var reader = try decoder.animationFrames(of: image, options: DecodeOptions(limits: limits))
            var count = 0
            while let frame = try reader.next() {
                count += 1
                if frame.bitmap.size != info.canvasSize {
                    FuzzFailure.stop("animation", "frame \(count) is \(frame.bitmap.size), the canvas \(info.canvasSize)")
                }
                if count > limits.maxFrames {
                    FuzzFailure.stop("animation", "more than \(limits.maxFrames) frames came out under that limit")
                }
            }
        } catch {
            // A typed CodecError is the expected end for bad bytes.
        }
    }
}
