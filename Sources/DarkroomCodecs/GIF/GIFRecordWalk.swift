import CGif
import DarkroomChains
import DarkroomCore

extension GIFDecoder {
    /// One pass over a GIF's records: hands the first frame to a closure (which decodes it, or
    /// just looks at it) and counts the frames after it by skipping their data.
    struct Walk {
        let limits: DecodeLimits
        private(set) var frameCount = 0
        private(set) var firstFrameCoversScreen = false
        private(set) var firstFrameHasTransparency = false
        /// False when the first frame has pixels but neither a local nor a global colour table.
        private(set) var firstFrameHasColorTable = true

        init(limits: DecodeLimits) {
            self.limits = limits
        }

        /// The first frame's handler: must consume the frame's data (decode or skip it), and
        /// reports whether the frame covers the screen and has a transparent index.
        typealias FirstFrame = (borrowing GIFFile, GIFFile.ImageHeader, Int?) throws(CodecError) -> (covers: Bool, transparent: Bool)

        /// Walks the records. With `stopAfterFirstFrame` the walk ends once the first frame is
        /// handled (the frames were counted by an earlier walk).
        mutating func run(_ file: borrowing GIFFile, stopAfterFirstFrame: Bool = false, firstFrame: FirstFrame) throws(CodecError) {
            var transparentIndex: Int?
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
                        // A GCE applies to the next frame only.
                        if let control = ext.graphicsControl { transparentIndex = control.transparentIndex }
                    case .image:
                        frameCount += 1
                        try file.checkFrameCount(frameCount, limits: limits)
                        let header = try file.readImageHeader()
                        if frameCount == 1 {
                            try checkFrame(header.rect, source: file.source)
                            if header.rect.width > 0 && header.rect.height > 0 {
                                firstFrameHasColorTable = header.localColors != nil || file.globalColors != nil
                                let seen = try firstFrame(file, header, transparentIndex)
                                firstFrameCoversScreen = seen.covers
                                firstFrameHasTransparency = seen.transparent
                            }
                        }
                        if frameCount > 1 || header.rect.width == 0 || header.rect.height == 0 {
                            try file.skipImageData()
                        }
                        if stopAfterFirstFrame { break walking }
                        transparentIndex = nil
                    }
                }
            } catch {
                // Lenient: once the first frame is in hand, a file that breaks off later still
                // counts the frames seen so far. Limits and strict mode always fail.
                guard !limits.strict, frameCount >= 1, error.code == .truncated || error.code == .corrupt else { throw error }
            }
            guard frameCount > 0 else {
                if dataEnded {
                    throw CodecError(.truncated, source: file.source, "truncated GIF: the data ends before the first frame")
                }
                throw CodecError(.corrupt, source: file.source, "GIF has no image frame")
            }
        }

        /// A frame declares its own size; a huge one would cost LZW work even where it is
        /// clipped away, so it is checked against the limits like the screen.
        private func checkFrame(_ rect: PixelRect, source: String) throws(CodecError) {
            guard rect.width > 0, rect.height > 0 else { return }
            try limits.check(PixelSize(width: rect.width, height: rect.height), source: source)
        }

        func info(screen: PixelSize) -> ImageInfo {
            ImageInfo(
                format: .gif, storedSize: screen, frameCount: max(1, frameCount),
                hasAlpha: firstFrameHasTransparency || !firstFrameCoversScreen)
        }
    }
}
