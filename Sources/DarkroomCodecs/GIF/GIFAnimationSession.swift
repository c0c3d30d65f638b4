import CGif
import DarkroomCore

/// The second pass over an animated GIF: hands out one frame per call, composited onto the
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
///
/// Each frame's LZW stream decodes on its own; only the compositing depends on the frame
/// before. So when other cores are idle, the session walks a group of frames ahead (reading
/// their descriptors and skipping their data, which is cheap), decodes the group's indices at
/// once on those cores (`RowBands.map`, each frame through its own giflib handle:
/// `GIFFrameIndices`), and composites them one at a time as they are asked for. Otherwise it
/// decodes each frame straight from its own handle onto the canvas, in order. Both ways give
/// the same frames, errors and lenient endings (`GIFFrameDecodingParityTests`). Memory stays
/// bounded: at most a group (`RowBands.animationGroupSize`) of frames' indices, a byte a pixel.
final class GIFAnimationSession: AnimationFrameSource {
    private let file: GIFFile
    /// The bytes `file` reads; the threads decoding ahead read them too, each with its own handle.
    private let bytes: OwnedBytes
    private let frameCount: Int
    private let strict: Bool
    private let bitmapLimits: BitmapLimits
    /// False to decode every frame in order on the calling thread, whatever the idle cores.
    private let decodesAhead: Bool
    private var canvas: Bitmap?
    /// The canvas before the last frame was drawn, kept when that frame's disposal is 3.
    private var beforeLastFrame: Bitmap?
    /// The last frame's disposal and rectangle, applied when the next frame comes.
    private var pendingDisposal: (disposal: GIFGraphicsControl.Disposal, rect: PixelRect)?
    private var framesDecoded = 0
    private var ended = false
    /// What the walk found ahead of the compositing, in order, frames with their indices decoded.
    private var walkedAhead: [Step] = []
    /// Frames the walk has passed (handed out, or waiting in `walkedAhead`).
    private var framesWalked = 0
    /// Set once the walk has reached the end of the frames (or broken off).
    private var walkEnded = false

    /// What the walk over the records finds next.
    private enum Step {
        case frame(WalkedFrame)
        /// The trailer, or the end of the data at a record boundary.
        case end
        /// The records broke off (or are damaged) here.
        case failure(CodecError)
    }

    /// A frame as the walk found it.
    private struct WalkedFrame {
        var header: GIFFile.ImageHeader
        /// The Graphics Control Extension before the frame (the defaults when there was none).
        var control: GIFGraphicsControl
        /// Where the frame's descriptor starts in the file.
        var descriptorOffset: Int
        var data: FrameData
    }

    /// Where a frame's indices come from.
    private enum FrameData {
        /// The walking handle, which is at the frame's compressed data.
        case file
        /// Decoded ahead on another handle (or, for a frame without pixels, nothing to draw).
        case decoded(GIFFrameIndices?)
    }

    /// `file` must be at its first record (rewound after the survey) and read `bytes`;
    /// `frameCount` is what the survey counted, which the session never goes past.
    init(
        file: consuming GIFFile, bytes: OwnedBytes, frameCount: Int, limits: DecodeLimits, bitmapLimits: BitmapLimits,
        decodesAhead: Bool = true
    ) {
        self.file = file
        self.bytes = bytes
        self.frameCount = frameCount
        self.strict = limits.strict
        self.bitmapLimits = bitmapLimits
        self.decodesAhead = decodesAhead
    }

    func nextFrame() throws(CodecError) -> AnimationFrame? {
        guard !ended, framesDecoded < frameCount else { return nil }
        if walkedAhead.isEmpty, !walkEnded, decodesAhead, RowBands.idleCores > 1 { walkAhead() }
        let step: Step
        if !walkedAhead.isEmpty {
            step = walkedAhead.removeFirst()
        } else if !walkEnded {
            step = walkToFrame()
        } else {
            return nil
        }
        do throws(CodecError) {
            switch step {
            case .end:
                ended = true
                return nil
            case .failure(let error):
                throw error
            case .frame(let frame):
                return try composite(frame)
            }
        } catch {
            // Lenient: a break after at least one good frame ends the animation there.
            guard !strict, framesDecoded >= 1, error.code == .truncated || error.code == .corrupt else { throw error }
            ended = true
            return nil
        }
    }

    /// Reads records up to the next frame's descriptor, leaving the file at its compressed data.
    private func walkToFrame() -> Step {
        guard framesWalked < frameCount else {
            walkEnded = true
            return .end
        }
        var control = GIFGraphicsControl()
        do throws(CodecError) {
            while true {
                let recordStart = file.position
                switch try file.nextRecord() {
                case .trailer, .endOfData:
                    walkEnded = true
                    return .end
                case .extensionBlock:
                    if let graphicsControl = try file.readExtension().graphicsControl { control = graphicsControl }
                case .image:
                    let header = try file.readImageHeader()
                    framesWalked += 1
                    return .frame(WalkedFrame(header: header, control: control, descriptorOffset: recordStart, data: .file))
                }
            }
        } catch {
            walkEnded = true
            return .failure(error)
        }
    }

    /// Walks up to a group of frames ahead, skipping their data, and decodes their indices at
    /// once on the idle cores.
    private func walkAhead() {
        var steps: [Step] = []
        /// The frames with pixels, to decode: their places in `steps`.
        var work: [(step: Int, frame: WalkedFrame)] = []
        while steps.count < RowBands.animationGroupSize, !walkEnded {
            let step = walkToFrame()
            guard case .frame(var frame) = step else {
                // `.end` or `.failure`: the walk has ended.
                steps.append(step)
                break
            }
            frame.data = .decoded(nil)
            let rect = frame.header.rect
            let hasPixels = rect.width > 0 && rect.height > 0
            do throws(CodecError) {
                try file.skipImageData()
            } catch {
                walkEnded = true
                // Drawn in order, a frame with pixels would break off at the same place while
                // being decoded (its decode below does); one without fails skipping its data.
                if hasPixels {
                    work.append((steps.count, frame))
                    steps.append(.frame(frame))
                }
                steps.append(.failure(error))
                break
            }
            if hasPixels { work.append((steps.count, frame)) }
            steps.append(.frame(frame))
        }
        let buffer = bytes.buffer
        let source = file.source
        let decoded = RowBands.map(count: work.count) { index in
            let frame = work[index].frame
            return GIFFrameIndices.decode(
                buffer, descriptorOffset: frame.descriptorOffset, width: frame.header.rect.width, height: frame.header.rect.height,
                source: source)
        }
        for ((place, frame), indices) in zip(work, decoded) {
            var frame = frame
            frame.data = .decoded(indices)
            steps[place] = .frame(frame)
        }
        walkedAhead = steps
    }

    /// Applies the last frame's disposal, draws this frame, and hands out the canvas.
    private func composite(_ frame: WalkedFrame) throws(CodecError) -> AnimationFrame {
        let header = frame.header
        let control = frame.control
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
            switch frame.data {
            case .file:
                complete = try GIFFrameDrawing.draw(
                    file, header: header, palette: palette, transparentIndex: control.transparentIndex,
                    into: &bitmap, strict: strict)
            case .decoded(let indices):
                guard let indices else {
                    throw CodecError(.corrupt, source: file.source, "corrupt GIF: frame \(framesDecoded + 1) could not be decoded")
                }
                complete = try GIFFrameDrawing.draw(
                    indices, header: header, palette: palette, transparentIndex: control.transparentIndex,
                    into: &bitmap, strict: strict)
            }
        } else if case .file = frame.data {
            try file.skipImageData()
        }
        pendingDisposal = (control.disposal, rect)
        // A frame drawn whole over the whole screen without a transparent index leaves only its
        // palette's colours, all opaque: no need to scan the canvas (a full-frame animation's
        // every frame). Otherwise what shows through decides.
        let coversScreen = rect.x <= 0 && rect.y <= 0 && rect.x + rect.width >= screen.width && rect.y + rect.height >= screen.height
        bitmap.isOpaque = (complete && coversScreen && control.transparentIndex == nil) || bitmap.scanIsOpaque()
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
