import CGif
import DarkroomChains
import DarkroomCore

/// The still decoder's observer of a `GIFRecordWalk`: looks at the first frame (its size against
/// the limits, its colour table, whether it covers the screen and has a transparent index) and
/// either skips it, when surveying, or draws it onto a transparent canvas of the screen's size.
/// Frames after the first are only counted.
struct GIFFirstFrame: GIFRecordObserver {
    let limits: DecodeLimits
    /// The ceiling the canvas is allocated under; nil when only surveying.
    let drawing: BitmapLimits?
    private(set) var coversScreen = false
    private(set) var hasTransparency = false
    /// False when the first frame has pixels but neither a local nor a global colour table.
    /// Checked by the caller after the walk, so lenient mode cannot mistake it for a damaged tail.
    private(set) var hasColorTable = true
    /// The first frame on the screen's canvas, once drawn.
    private(set) var canvas: Bitmap?
    /// False when lenient mode kept the rows of a first frame that broke off.
    private(set) var complete = true
    /// Why drawing failed, for when lenient mode ends the walk quietly after it.
    private(set) var drawFailure: CodecError?

    init(limits: DecodeLimits, drawing: BitmapLimits? = nil) {
        self.limits = limits
        self.drawing = drawing
    }

    mutating func frame(
        _ number: Int, header: GIFFile.ImageHeader, control: GIFGraphicsControl, in file: borrowing GIFFile
    ) throws(CodecError) -> Bool {
        // Drawing stops at the first frame: the survey before it counted the rest.
        let goesOn = drawing == nil
        let rect = header.rect
        guard number == 1, rect.width > 0, rect.height > 0 else {
            try file.skipImageData()
            return goesOn || number > 1
        }
        // A frame declares its own size; a huge one would cost LZW work even where it is
        // clipped away, so it is checked against the limits like the screen.
        try limits.check(PixelSize(width: rect.width, height: rect.height), source: file.source)
        let screen = file.screenSize
        coversScreen = GIFDecoder.covers(rect, screen)
        hasTransparency = control.transparentIndex != nil
        let colors = header.localColors ?? file.globalColors
        hasColorTable = colors != nil
        guard let drawing, let colors else {
            try file.skipImageData()
            return goesOn
        }
        do throws(CodecError) {
            var bitmap = try CodecBitmap.transparent(width: screen.width, height: screen.height, limits: drawing, source: file.source)
            let palette = GIFFrameDrawing.palette(colors, transparentIndex: control.transparentIndex)
            complete = try GIFFrameDrawing.draw(
                file, header: header, palette: palette, transparentIndex: control.transparentIndex,
                into: &bitmap, strict: limits.strict)
            canvas = bitmap
        } catch {
            drawFailure = error
            throw error
        }
        return goesOn
    }

    /// The image's header facts: the screen, the frames counted by the walk, and alpha unless
    /// the first frame covers the screen without a transparent index.
    func info(screen: PixelSize, frameCount: Int) -> ImageInfo {
        ImageInfo(format: .gif, storedSize: screen, frameCount: max(1, frameCount), hasAlpha: hasTransparency || !coversScreen)
    }
}
