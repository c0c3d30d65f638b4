import ArgumentParser
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomQueue

/// The decode and output limit flags, shared by every command that renders images (`process`,
/// `run`, `worker`): their ranges are checked and they become `RenderLimits` in one place, so the
/// commands cannot drift apart.
struct LimitOptions: ParsableArguments {
    @Flag(help: "Accept truncated or slightly corrupt images when the decoder can recover them (default: strict).")
    var lenient = false

    @Option(help: "Largest input in megapixels, checked from the header before decoding.")
    var maxPixels: Double = 50

    @Option(help: "Most pixels of an animation processed frame by frame (frames × width × height), in megapixels, checked from the header.")
    var maxAnimationPixels: Double = 500

    @Option(help: "Longest side of a result, in pixels.")
    var maxOutputDimension: Int = 16_383

    @Option(help: "Most pixels any one bitmap may hold while processing, in megapixels (checked before allocating).")
    var maxOutputPixels: Double = 100

    @Option(help: "Most renditions one job may ask for (--rendition, a job's renditions).")
    var maxRenditions: Int = 16

    @Option(help: "Most pixels the renditions made from one decode may hold together, in megapixels.")
    var maxRenditionPixels: Double = 100

    /// The limits these flags describe; a value out of range is a `UsageFailure` naming the flag.
    func renderLimits() throws(UsageFailure) -> RenderLimits {
        // `contains` is false for NaN and the infinities, so those are refused too.
        guard (0.001...1000).contains(maxPixels) else {
            throw UsageFailure("--max-pixels must be 0.001…1000 megapixels (got \(maxPixels))")
        }
        guard (0.001...1000).contains(maxOutputPixels) else {
            throw UsageFailure("--max-output-pixels must be 0.001…1000 megapixels (got \(maxOutputPixels))")
        }
        guard (0.001...100_000).contains(maxAnimationPixels) else {
            throw UsageFailure("--max-animation-pixels must be 0.001…100000 megapixels (got \(maxAnimationPixels))")
        }
        guard (1...65_535).contains(maxOutputDimension) else {
            throw UsageFailure("--max-output-dimension must be 1…65535 pixels (got \(maxOutputDimension))")
        }
        guard (1...JobRendition.maximumPerRecord).contains(maxRenditions) else {
            throw UsageFailure("--max-renditions must be 1…\(JobRendition.maximumPerRecord) (got \(maxRenditions))")
        }
        guard (0.001...10_000).contains(maxRenditionPixels) else {
            throw UsageFailure("--max-rendition-pixels must be 0.001…10000 megapixels (got \(maxRenditionPixels))")
        }
        var decode = DecodeLimits()
        decode.maxPixels = Int(maxPixels * 1_000_000)
        decode.strict = !lenient
        decode.maxAnimationPixels = Int(maxAnimationPixels * 1_000_000)
        // The per-bitmap ceiling must admit every input the decode limit admits.
        let bitmap = BitmapLimits(maxPixelCount: max(Int(maxOutputPixels * 1_000_000), decode.maxPixels))
        var limits = RenderLimits(decode: decode, bitmap: bitmap, maxOutputDimension: maxOutputDimension)
        limits.maxRenditions = maxRenditions
        limits.maxRenditionPixels = Int(maxRenditionPixels * 1_000_000)
        return limits
    }
}
