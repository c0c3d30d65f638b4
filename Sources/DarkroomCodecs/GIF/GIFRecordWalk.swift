import CGif
import DarkroomChains
import DarkroomCore

/// What a walk over a GIF's records tells the code that walks it: each frame, once its
/// descriptor is read. `GIFAnimationSurvey` checks every frame against the animation limits;
/// `GIFFirstFrame` decodes (or only looks at) the first frame for the still decoder.
protocol GIFRecordObserver {
    /// Frame `number` (1-based) with the Graphics Control Extension before it (the defaults when
    /// there was none). Must consume the frame's compressed data, by decoding or skipping it.
    /// Returns false to end the walk after this frame.
    mutating func frame(
        _ number: Int, header: GIFFile.ImageHeader, control: GIFGraphicsControl, in file: borrowing GIFFile
    ) throws(CodecError) -> Bool
}

/// One pass over a GIF's records, written once for every reader of the format: counts the frames
/// (refusing more than `maxFrames` as soon as the frame after the limit is reached), hands each
/// frame to an observer with the Graphics Control Extension that applies to it, and keeps the
/// first looping extension's count.
///
/// Strict: a damaged or cut-short record is an error. Lenient: once a frame was seen, a file
/// that breaks off later keeps the frames before the break (limits always fail). A missing
/// trailer after the last complete frame is accepted in both modes (many encoders omit it).
struct GIFRecordWalk {
    let limits: DecodeLimits
    /// The frames seen so far; after `run`, all of them (or those before the walk was ended).
    private(set) var frameCount = 0
    /// The first NETSCAPE2.0 (or ANIMEXTS1.0) loop count as stored (repeats after the first
    /// showing); nil when the file has none. The first one wins, as in browsers.
    private(set) var storedLoopCount: Int?

    init(limits: DecodeLimits) {
        self.limits = limits
    }

    /// Walks the records of `file`, which must be at its first record (freshly opened, or
    /// rewound), until the trailer, the end of the data, or the observer ends the walk.
    mutating func run(_ file: borrowing GIFFile, observer: inout some GIFRecordObserver) throws(CodecError) {
        var control = GIFGraphicsControl()
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
                    if storedLoopCount == nil { storedLoopCount = ext.netscapeLoopCount }
                case .image:
                    frameCount += 1
                    try file.checkFrameCount(frameCount, limits: limits)
                    let header = try file.readImageHeader()
                    let goesOn = try observer.frame(frameCount, header: header, control: control, in: file)
                    // A Graphics Control Extension applies to the next frame only.
                    control = GIFGraphicsControl()
                    if !goesOn { break walking }
                }
            }
        } catch {
            guard !limits.strict, frameCount >= 1, error.code == .truncated || error.code == .corrupt else { throw error }
        }
        guard frameCount > 0 else {
            if dataEnded {
                throw CodecError(.truncated, source: file.source, "truncated GIF: the data ends before the first frame")
            }
            throw CodecError(.corrupt, source: file.source, "GIF has no image frame")
        }
    }
}
