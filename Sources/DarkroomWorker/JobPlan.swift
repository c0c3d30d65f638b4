import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomQueue
import DarkroomSources
import DarkroomSystem

/// A job record turned into what the pipeline runs, checked before any work: the chain against
/// this worker's processors and the output format. The names its output file may get are worked
/// out only when it has an output (`fileNames`).
struct JobPlan: Sendable {
    var request: ImageRequest
    var source: String
    var jobID: JobID

    /// - Throws: `ChainError` (`.unknownProcessor` when this worker lacks a processor the chain
    ///   names; the caller hands such jobs back), `WorkerError` for an unwritable format.
    init(job: Job, processors: ProcessorRegistry, coders: CoderRegistry = .standard, chains: ChainCache? = nil) throws {
        let chain = try chains?.chain(job.chain, processors: processors) ?? processors.chain(from: job.chain)
        var format: ImageFormat?
        if let name = job.format {
            guard let known = coders.writableFormat(named: name) else { throw WorkerError.unsupportedFormat(name) }
            format = known
        }
        var encoding = EncodeOptions()
        if let quality = job.quality { encoding.quality = quality }
        request = ImageRequest(
            source: SourceReference(job.source), chain: chain,
            output: OutputOptions(format: format, encoding: encoding, frames: job.firstFrameOnly == true ? .first : .all))
        source = job.source
        jobID = job.id
    }

    /// `(preferred, fallback)` file names for a result in `format`: the source's base name (the
    /// job id when it has none) and the job id, with the format's extension.
    func fileNames(for format: ImageFormat) -> (preferred: String, fallback: String) {
        let ext = "." + format.fileExtension
        let fallbackName = OutputNaming.fileName(forJobID: jobID)
        return ((OutputNaming.baseName(ofSource: source) ?? fallbackName) + ext, fallbackName + ext)
    }
}

/// Chains already parsed and bound, by their text: a batch of jobs usually shares one chain, and
/// parsing it again for every job cost more than the queue round trip of a cache hit. Bounded: when
/// full it is emptied (chains are cheap to parse again; an unbounded map would grow with hostile
/// input). Failures are not kept.
final class ChainCache: Sendable {
    private let chains = Locked<[String: ProcessorChain]>([:])
    let limit: Int

    init(limit: Int = 256) { self.limit = max(1, limit) }

    func chain(_ text: String, processors: ProcessorRegistry) throws(ChainError) -> ProcessorChain {
        if let known = chains.withLock({ $0[text] }) { return known }
        let chain = try processors.chain(from: text)
        chains.withLock { chains in
            if chains.count >= limit { chains.removeAll(keepingCapacity: true) }
            chains[text] = chain
        }
        return chain
    }
}
