import CGif
import DarkroomChains
import DarkroomCore

/// The first pass over a GIF read as an animation, observing a `GIFRecordWalk`: counts the
/// frames and reads the loop count while skipping every frame's compressed data, so the limits
/// are checked before any frame is decoded (GIF's header does not say how many frames follow).
///
/// Every frame's own size is checked against `DecodeLimits` like the screen: a frame is decoded
/// in full even where it is clipped away, so a 65535×65535 frame on a small screen would cost
/// that much LZW work. For the same reason the frames' own areas, added up, must stay within
/// `maxAnimationPixels` too (frames × screen alone would let oversized frames on a tiny screen
/// through). A frame with pixels but no colour table is refused here too.
struct GIFAnimationSurvey: GIFRecordObserver {
    let limits: DecodeLimits
    let screen: PixelSize
    private var declaredFramePixels = 0
    /// Whether any frame may leave a pixel uncovered or cleared.
    private(set) var hasAlpha = false

    private init(limits: DecodeLimits, screen: PixelSize) {
        self.limits = limits
        self.screen = screen
    }

    /// Surveys `file` (at its first record) and checks the whole animation against `limits`.
    static func run(_ file: borrowing GIFFile, limits: DecodeLimits) throws(CodecError) -> AnimationInfo {
        let screen = file.screenSize
        try limits.check(screen, source: file.source)
        var survey = GIFAnimationSurvey(limits: limits, screen: screen)
        var walk = GIFRecordWalk(limits: limits)
        try walk.run(file, observer: &survey)
        try limits.checkAnimation(canvas: screen, frameCount: walk.frameCount, source: file.source)
        return AnimationInfo(
            format: .gif, canvasSize: screen, frameCount: walk.frameCount,
            loopCount: loopCount(stored: walk.storedLoopCount), hasAlpha: survey.hasAlpha)
    }

    mutating func frame(
        _ number: Int, header: GIFFile.ImageHeader, control: GIFGraphicsControl, in file: borrowing GIFFile
    ) throws(CodecError) -> Bool {
        let rect = header.rect
        if rect.width > 0 && rect.height > 0 {
            try limits.check(PixelSize(width: rect.width, height: rect.height), source: file.source)
            declaredFramePixels += rect.width * rect.height
            if declaredFramePixels > limits.maxAnimationPixels {
                throw CodecError(
                    .tooLarge, source: file.source,
                    "GIF frames declare more than \(DecodeLimits.pixelCount(limits.maxAnimationPixels)) in all by frame \(number) (each is decoded in full, even where the screen clips it), over the animation limit (raise it with --max-animation-pixels)"
                )
            }
            guard header.localColors != nil || file.globalColors != nil else {
                throw CodecError(.corrupt, source: file.source, "corrupt GIF: frame \(number) has no colour table (local or global)")
            }
        }
        // Conservative: anything that can leave a pixel uncovered or cleared.
        hasAlpha =
            hasAlpha || control.transparentIndex != nil || control.disposal == .restoreBackground
            || (number == 1 && (control.disposal == .restorePrevious || !GIFDecoder.covers(rect, screen)))
        try file.skipImageData()
        return true
    }

    /// WebP's meaning (plays in all, 0 = forever) from GIF's (repeats after the first showing;
    /// no extension = play once). 65535 is the most either format can store.
    static func loopCount(stored: Int?) -> Int {
        guard let stored else { return 1 }
        return stored == 0 ? 0 : min(65_535, stored + 1)
    }
}
