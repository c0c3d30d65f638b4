import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomSystem

extension ImageRenderer {
    /// One rendition's processed bitmap and the milliseconds its chain took.
    typealias ProcessedRendition = Result<(bitmap: Bitmap, milliseconds: Double), any Error>

    /// Runs the chains of the renditions at `making` (indices into `chains`), each on `decoded` or
    /// on its parent's intermediate (`cascade`), and returns their bitmaps in `making`'s order.
    ///
    /// The renditions run as a tree, a level at a time (`RenditionCascade.levels`): those from the
    /// decode first, then their children, and so on; the renditions of one level at once on the
    /// cores no other image uses. A parent's first processor runs alone, its result (the
    /// intermediate) kept for its children, then the rest of its chain. A parent that is not in
    /// `making` (its result was cached) has its intermediate made and nothing else. A child whose
    /// parent's intermediate failed fails with that error.
    func processRenditions(
        _ decoded: Bitmap, chains: [ProcessorChain], cascade: RenditionCascade, making: [Int], sourceName: String,
        resources: ResolvedResources = ResolvedResources()
    ) -> [ProcessedRendition] {
        let clock = ContinuousClock()
        let context = ImageProcessingContext(decoder: coders, resources: resources)
        let coders = self.coders
        let limits = self.limits
        let wanted = Set(making)
        let levels = cascade.levels(making: making)
        let parentsNeeded = Set(levels.joined().compactMap { cascade.parents[$0] })
        var intermediates: [Int: Result<Bitmap, any Error>] = [:]
        var processed: [Int: ProcessedRendition] = [:]

        for level in levels {
            let above = intermediates  // what this level's threads read
            let outcomes = RowBands.map(count: level.count) { slot -> (Result<Bitmap, any Error>?, ProcessedRendition?) in
                let index = level[slot]
                let begin = clock.now
                let input: Result<Bitmap, any Error>
                if let parent = cascade.parents[index], let made = above[parent] {
                    input = made.map { Self.asDecode($0, of: decoded) }
                } else {
                    input = .success(decoded)
                }
                let chain = chains[index]
                let run = { (chain: ProcessorChain, bitmap: Bitmap) -> Result<Bitmap, any Error> in
                    Result { () throws(any Error) -> Bitmap in try Self.run(chain, on: bitmap, context: context, coders: coders, limits: limits) }
                }
                // A parent's intermediate: its first processor alone (a `downsample`, which gives a bitmap).
                let intermediate = parentsNeeded.contains(index) ? input.flatMap { run(ProcessorChain(Array(chain.processors.prefix(1))), $0) } : nil
                guard wanted.contains(index) else { return (intermediate, nil) }
                let bitmap: Result<Bitmap, any Error>
                if let intermediate {
                    bitmap = intermediate.flatMap { run(ProcessorChain(Array(chain.processors.dropFirst())), $0) }
                } else {
                    bitmap = input.flatMap { run(chain, $0) }
                }
                let result = bitmap.flatMap { bitmap -> ProcessedRendition in
                    Result { () throws(any Error) -> (bitmap: Bitmap, milliseconds: Double) in
                        try limits.checkOutput(bitmap.size, source: sourceName)
                        return (bitmap, (clock.now - begin).inMilliseconds)
                    }
                }
                return (intermediate, result)
            }
            for (index, outcome) in zip(level, outcomes) {
                if let intermediate = outcome.0 { intermediates[index] = intermediate }
                if let result = outcome.1 { processed[index] = result }
            }
        }
        // `levels(making:)` holds every index of `making`, so each has its result.
        return making.map { processed[$0]! }
    }

    /// A parent's intermediate as its children's decode: an image the size of the decoded one,
    /// shrunk on load, so a child's processor computes the dimensions it has alone.
    static func asDecode(_ intermediate: Bitmap, of decoded: Bitmap) -> Bitmap {
        var bitmap = intermediate
        bitmap.sizeBeforeShrinkOnLoad = decoded.logicalSize == intermediate.size ? nil : decoded.logicalSize
        return bitmap
    }

    /// `chain` over `bitmap`, its result decoded when a processor returns encoded bytes.
    static func run(
        _ chain: ProcessorChain, on bitmap: Bitmap, context: ImageProcessingContext, coders: CoderRegistry, limits: RenderLimits
    ) throws -> Bitmap {
        switch try chain.process(.bitmap(bitmap), context: context) {
        case .bitmap(let result): return result
        case .data(let encoded): return try coders.decode(encoded, options: limits.decodeOptions()).bitmap
        }
    }
}
