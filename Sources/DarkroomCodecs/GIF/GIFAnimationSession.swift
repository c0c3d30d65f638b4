import CGif
import DarkroomCore

/// The second pass over an animated GIF: decodes one frame per call and composites it onto the
/// logical screen the way browsers do.
///
/// - The canvas starts transparent; each frame is drawn at its offset, clipped to the screen,
///   and pixels of its transparent index (from the Graphics Control Extension before it) let
///   the canvas show through.
/// - Before the next frame is drawn, the previous frame's disposal applies: keep (0, 1 and the
///   reserved 4–7), restore its area to transparent (2), or put the canvas back as it was
///   before that frame (3).
/// - The canvas is one copy-on-write `Bitmap`: a frame handed out shares its storage, so the
///   next frame's drawing copies the canvas only if the caller still holds the frame. "Restore
///   previous" keeps one more reference the same way.
final class GIFAnimationSession: AnimationFrameSource {
    private let file: GIFFile
    private let frameCount: Int
    private let strict: Bool
    private let bitmapLimits: BitmapLimits
    private var canvas: Bitmap?
    /// The canvas before the last frame was drawn, kept when that frame's disposal is 3.
    private var beforeLastFrame: Bitmap?
    /// The last frame's disposal and rectangle, applied when the next frame comes.
    private var pendingDisposal: (disposal: GIFGraphicsControl.Disposal, rect: PixelRect)?
    private var framesDecoded = 0
    private var ended = false

    /// `file` must be at its first record (rewound after the survey); `frameCount` is what the
    /// survey counted, which the session never goes past.
    init(file: consuming GIFFile, frameCount: Int, limits: DecodeLimits, bitmapLimits: BitmapLimits) {
        self.file = file
        self.frameCount = frameCount
        self.strict = limits.strict
        self.bitmapLimits = bitmapLimits
    }

    func nextFrame() throws(CodecError) -> AnimationFrame? {
        guard !ended, framesDecoded < frameCount else { return nil }
        var control = GIFGraphicsControl()
        do throws(CodecError) {
            while true {
                switch try file.nextRecord() {
                case .trailer, .endOfData:
                    ended = true
                    return nil
                case .extensionBlock:
                    if let graphicsControl = try file.readExtension().graphicsControl { control = graphicsControl }
                case .image:
                    let header = try file.readImageHeader()
                    return try composite(header, control: control)
                }
            }
        } catch {
            // Lenient: a break after at least one good frame ends the animation there.
            guard !strict, framesDecoded >= 1, error.code == .truncated || error.code == .corrupt else { throw error }
            ended = true
            return nil
        }
    }

    /// Applies the last frame's disposal, draws this frame, and hands out the canvas.
    private func composite(_ header: GIFFile.ImageHeader, control: GIFGraphicsControl) throws(CodecError) -> AnimationFrame {
        let screen = file.screenSize
        var bitmap: Bitmap
        if let canvas {
            bitmap = canvas
        } else {
            bitmap = try CodecBitmap.transparent(width: screen.width, height: screen.height, limits: bitmapLimits, source: file.source)
        }
        // Dropped here so that, when the caller no longer holds the last frame, `bitmap` is the
        // storage's only owner and is drawn on in place.
        canvas = nil
        switch pendingDisposal?.disposal {
        case .restoreBackground:
            if let rect = pendingDisposal?.rect { Self.clear(rect, in: &bitmap) }
        case .restorePrevious:
            if let previous = beforeLastFrame { bitmap = previous }
        case .keep, nil:
            break
        }
        beforeLastFrame = control.disposal == .restorePrevious ? bitmap : nil

        var complete = true
        let rect = header.rect
        if rect.width > 0 && rect.height > 0 {
            guard let colors = header.localColors ?? file.globalColors else {
                throw CodecError(
                    .corrupt, source: file.source, "corrupt GIF: frame \(framesDecoded + 1) has no colour table (local or global)")
            }
            let palette = GIFFrameDrawing.palette(colors, transparentIndex: control.transparentIndex)
            complete = try GIFFrameDrawing.draw(
                file, header: header, palette: palette, transparentIndex: control.transparentIndex,
                into: &bitmap, strict: strict)
        } else {
            try file.skipImageData()
        }
        pendingDisposal = (control.disposal, rect)
        bitmap.isOpaque = bitmap.scanIsOpaque()
        canvas = bitmap
        framesDecoded += 1
        // Lenient mode kept the rows of a frame that broke off; nothing after it can be read.
        if !complete { ended = true }
        return AnimationFrame(bitmap: bitmap, durationMilliseconds: control.durationMilliseconds)
    }

    /// Makes `rect`, clipped to the canvas, transparent.
    private static func clear(_ rect: PixelRect, in bitmap: inout Bitmap) {
        let x0 = max(0, rect.x)
        let y0 = max(0, rect.y)
        let x1 = min(bitmap.width, rect.x + rect.width)
        let y1 = min(bitmap.height, rect.y + rect.height)
        guard x0 < x1, y0 < y1 else { return }
        let stride = bitmap.bytesPerRow
        bitmap.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            for y in y0..<y1 {
                (base + y * stride + x0 * 4).update(repeating: 0, count: (x1 - x0) * 4)
            }
        }
        bitmap.isOpaque = false
    }
}
