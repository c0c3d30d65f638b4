import CGif
import DarkroomChains
import DarkroomCore

/// The first pass over a GIF read as an animation: counts the frames and reads the loop count
/// while skipping every frame's compressed data, so the limits are checked before any frame is
/// decoded (GIF's header does not say how many frames follow).
///
/// Every frame's own size is checked against `DecodeLimits` like the screen: a frame is decoded
/// in full even where it is clipped away, so a 65535×65535 frame on a small screen would cost
/// that much LZW work. For the same reason the frames' own areas, added up, must stay within
/// `maxAnimationPixels` too (frames × screen alone would let oversized frames on a tiny screen
/// through). A frame with pixels but no colour table is refused here too.
enum GIFAnimationSurvey {
    static func run(_ file: borrowing GIFFile, limits: DecodeLimits) throws(CodecError) -> AnimationInfo {
        let screen = file.screenSize
        try limits.check(screen, source: file.source)
        var frameCount = 0
        var storedLoopCount: Int?
        var declaredFramePixels = 0
        var control = GIFGraphicsControl()
        var hasAlpha = false
        var dataEnded = false
        do throws(CodecError) {
            walking: while true {
                switch try file.nextRecord() {
                case .trailer:
                    break walking
                case .endOfData:
                    dataEnded = true
                    break walking
                case .extensionBlock:
                    let ext = try file.readExtension()
                    if let graphicsControl = ext.graphicsControl { control = graphicsControl }
                    // The first looping extension wins, as in browsers.
                    if storedLoopCount == nil { storedLoopCount = ext.netscapeLoopCount }
                case .image:
                    frameCount += 1
                    try file.checkFrameCount(frameCount, limits: limits)
                    let header = try file.readImageHeader()
                    let rect = header.rect
                    if rect.width > 0 && rect.height > 0 {
                        try limits.check(PixelSize(width: rect.width, height: rect.height), source: file.source)
                        declaredFramePixels += rect.width * rect.height
                        if declaredFramePixels > limits.maxAnimationPixels {
                            throw CodecError(
                                .tooLarge, source: file.source,
                                "GIF frames declare more than \(DecodeLimits.pixelCount(limits.maxAnimationPixels)) in all by frame \(frameCount) (each is decoded in full, even where the screen clips it), over the animation limit (raise it with --max-animation-pixels)"
                            )
                        }
                        guard header.localColors != nil || file.globalColors != nil else {
                            throw CodecError(
                                .corrupt, source: file.source,
                                "corrupt GIF: frame \(frameCount) has no colour table (local or global)")
                        }
                    }
                    // Conservative: anything that can leave a pixel uncovered or cleared.
                    hasAlpha =
                        hasAlpha || control.transparentIndex != nil || control.disposal == .restoreBackground
                        || (frameCount == 1 && (control.disposal == .restorePrevious || !GIFDecoder.covers(rect, screen)))
                    try file.skipImageData()
                    control = GIFGraphicsControl()
                }
            }
        } catch {
            // Lenient: a file that breaks off after a frame keeps the frames before the break
            // (the reader stops there). Limits, and strict mode, always fail.
            guard !limits.strict, frameCount >= 1, error.code == .truncated || error.code == .corrupt else { throw error }
        }
        guard frameCount > 0 else {
            if dataEnded {
                throw CodecError(.truncated, source: file.source, "truncated GIF: the data ends before the first frame")
            }
            throw CodecError(.corrupt, source: file.source, "GIF has no image frame")
        }
        try limits.checkAnimation(canvas: screen, frameCount: frameCount, source: file.source)
        return AnimationInfo(
            format: .gif, canvasSize: screen, frameCount: frameCount,
            loopCount: loopCount(stored: storedLoopCount), hasAlpha: hasAlpha)
    }

    /// WebP's meaning (plays in all, 0 = forever) from GIF's (repeats after the first showing;
    /// no extension = play once). 65535 is the most either format can store.
    static func loopCount(stored: Int?) -> Int {
        guard let stored else { return 1 }
        return stored == 0 ? 0 : min(65_535, stored + 1)
    }
}
