import CWebP
import DarkroomChains
import DarkroomCore

/// The RIFF container of a WebP file, parsed by libwebp's demuxer without decoding pixels:
/// canvas size, frame count, alpha, the ICC profile and the first frame's bitstream.
///
/// The demuxer keeps pointers into the bytes it was given, so a container must not outlive the
/// `withUnsafeBytes` scope of `bytes`; it is non-copyable so the demuxer is freed exactly once.
struct WebPContainer: ~Copyable {
    private let demuxer: OpaquePointer
    let source: String
    /// False when the RIFF header promises more bytes than the file has (cut short, or a RIFF
    /// size that lies).
    let isComplete: Bool
    let canvasSize: PixelSize
    let frameCount: Int
    let isAnimated: Bool
    /// How many times an animation plays (0 = forever); 1 for a still image.
    let loopCount: Int
    /// Whether the header or bitstream says there may be transparency.
    let hasAlpha: Bool
    let hasICCProfile: Bool

    /// Parses the container of `bytes` and checks its canvas and frame count against `limits`
    /// before anything is decoded.
    init(bytes: UnsafeRawBufferPointer, limits: DecodeLimits, source: String) throws(CodecError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0 else {
            throw CodecError(.truncated, source: source, "WebP data is empty")
        }
        var data = WebPData(bytes: base, size: bytes.count)
        var state = WEBP_DEMUX_PARSING_HEADER
        // Partial mode, so a file cut short still yields its header and complete frames; the
        // decoder decides (strict or lenient) what to do with an incomplete file.
        let parsed = WebPDemuxPartial(&data, &state)
        guard let demuxer = parsed, state != WEBP_DEMUX_PARSING_HEADER, state != WEBP_DEMUX_PARSE_ERROR else {
            if let parsed { WebPDemuxDelete(parsed) }
            if state == WEBP_DEMUX_PARSING_HEADER {
                throw CodecError(.truncated, source: source, "WebP data ends inside its header (\(bytes.count) bytes)")
            }
            throw CodecError(.corrupt, source: source, "corrupt WebP container (the RIFF chunks do not parse)")
        }
        let width = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
        let height = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
        let flags = WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS)
        let frames = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        let animated = flags & ANIMATION_FLAG.rawValue != 0
        let size = PixelSize(width: width, height: height)
        do throws(CodecError) {
            try limits.check(size, source: source)
            if frames > limits.maxFrames {
                throw CodecError(
                    .tooManyFrames, source: source,
                    "WebP animation has \(frames) frames, over the \(limits.maxFrames) frame limit (a fixed limit)")
            }
        } catch {
            WebPDemuxDelete(demuxer)
            throw error
        }
        var features = WebPBitstreamFeatures()
        let featureStatus = WebPGetFeatures(base, bytes.count, &features)
        self.demuxer = demuxer
        self.source = source
        self.isComplete = state == WEBP_DEMUX_DONE
        self.canvasSize = size
        self.frameCount = max(frames, 1)
        self.isAnimated = animated
        self.loopCount = animated ? Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT)) : 1
        self.hasAlpha = flags & ALPHA_FLAG.rawValue != 0 || (featureStatus == VP8_STATUS_OK && features.has_alpha != 0)
        self.hasICCProfile = flags & ICCP_FLAG.rawValue != 0
    }

    deinit { WebPDemuxDelete(demuxer) }

    var info: ImageInfo {
        ImageInfo(format: .webp, storedSize: canvasSize, frameCount: frameCount, hasAlpha: hasAlpha, hasICCProfile: hasICCProfile)
    }

    var animationInfo: AnimationInfo {
        AnimationInfo(format: .webp, canvasSize: canvasSize, frameCount: frameCount, loopCount: loopCount, hasAlpha: hasAlpha)
    }

    /// The ICCP chunk's bytes, if the file has one.
    func iccProfile() -> [UInt8]? {
        guard hasICCProfile else { return nil }
        return chunk("ICCP")
    }

    /// The first chunk with this FourCC (`ICCP`, `EXIF`, `XMP `), if the file has one.
    func chunk(_ fourCC: String) -> [UInt8]? {
        var chunk = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, fourCC, 1, &chunk) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&chunk) }
        guard let start = chunk.chunk.bytes, chunk.chunk.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: start, count: chunk.chunk.size))
    }

    /// The first frame: its place on the canvas and its bitstream (ALPH + VP8, or VP8L), which
    /// points into the file's bytes.
    func firstFrame() throws(CodecError) -> WebPFrame {
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else {
            throw CodecError(
                isComplete ? .corrupt : .truncated, source: source,
                isComplete ? "WebP file has no image frame" : "WebP data ends before its first frame")
        }
        defer { WebPDemuxReleaseIterator(&iterator) }
        let frame = WebPFrame(
            rect: PixelRect(
                x: Int(iterator.x_offset), y: Int(iterator.y_offset),
                width: Int(iterator.width), height: Int(iterator.height)),
            bitstream: UnsafeRawBufferPointer(start: iterator.fragment.bytes, count: iterator.fragment.size),
            isComplete: iterator.complete != 0,
            hasAlpha: iterator.has_alpha != 0)
        // The demuxer has checked that frames lie inside the canvas; check again before any
        // pointer arithmetic depends on it.
        guard frame.rect.width > 0, frame.rect.height > 0, frame.rect.x >= 0, frame.rect.y >= 0,
            frame.rect.x + frame.rect.width <= canvasSize.width,
            frame.rect.y + frame.rect.height <= canvasSize.height
        else {
            throw CodecError(.corrupt, source: source, "WebP frame \(frame.rect) lies outside the \(canvasSize) canvas")
        }
        return frame
    }
}

/// One frame of a WebP file, as the demuxer found it.
struct WebPFrame {
    var rect: PixelRect
    /// The frame's chunks, inside the file's bytes.
    var bitstream: UnsafeRawBufferPointer
    /// False when the file ends inside this frame.
    var isComplete: Bool
    var hasAlpha: Bool
}
