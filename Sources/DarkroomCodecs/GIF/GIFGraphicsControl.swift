/// What a Graphics Control Extension says about the frame after it: how long it shows, which
/// colour index is transparent, and what happens to its area before the next frame is drawn.
struct GIFGraphicsControl: Equatable {
    /// What to do with a frame's area once it has been shown (the GCE's disposal method).
    enum Disposal: Equatable {
        /// 0 (unspecified) and 1 (do not dispose): the frame stays; the next one draws over it.
        /// Values 4–7 are reserved and treated the same, as browsers do.
        case keep
        /// 2: the frame's area becomes background. Browsers use transparent, not the screen's
        /// background colour, and so does Darkroom.
        case restoreBackground
        /// 3: the canvas goes back to what it was before the frame was drawn.
        case restorePrevious
    }

    var disposal: Disposal = .keep
    /// The delay as stored, in hundredths of a second.
    var delayCentiseconds = 0
    var transparentIndex: Int?

    init() {}

    /// From the GCE's data bytes: packed fields, delay (little-endian), transparent index.
    init(packed: UInt8, delayLow: UInt8, delayHigh: UInt8, transparentIndex: UInt8) {
        switch (packed >> 2) & 0b111 {
        case 2: disposal = .restoreBackground
        case 3: disposal = .restorePrevious
        default: disposal = .keep
        }
        delayCentiseconds = Int(delayLow) | Int(delayHigh) << 8
        self.transparentIndex = packed & 1 != 0 ? Int(transparentIndex) : nil
    }

    /// The delay in milliseconds as browsers play it: a delay of 10 ms or less (0 or 1
    /// hundredth, written by tools that mean "as fast as possible") becomes 100 ms, which is
    /// what Chrome, Firefox and Safari show, so an animation plays at the speed people expect.
    var durationMilliseconds: Int {
        let milliseconds = delayCentiseconds * 10
        return milliseconds <= 10 ? 100 : milliseconds
    }
}

/// The parts of a GIF extension block Darkroom reads.
struct GIFExtension {
    /// Set for a Graphics Control Extension (it applies to the next frame only).
    var graphicsControl: GIFGraphicsControl?
    /// The NETSCAPE2.0 application extension's loop count as stored: 0 = forever, n = repeat n
    /// times after the first showing.
    var netscapeLoopCount: Int?
}
