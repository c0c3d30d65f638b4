import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomSources
import DarkroomSystem

/// A job record turned into what the pipeline runs, checked before any work: the chain against
/// this worker's processors, the output format and the output-name template. The name its output
/// file gets is worked out only when it has an output (`outputNames`).
struct JobPlan: Sendable {
    var request: ImageRequest
    var job: Job
    /// The job's output-name template; nil for the default (`{stem}.{ext}`, stepping around
    /// another batch's file to the id's name).
    var template: OutputNameTemplate?
    /// The job's renditions, planned; nil for a job with one output.
    var renditions: [PlannedRendition]?

    /// - Throws: `ChainError` (`.unknownProcessor` when this worker lacks a processor the chain
    ///   names; the caller hands such jobs back), `WorkerError` for an unwritable format,
    ///   `OutputNameError` for a bad `name`.
    init(job: Job, processors: ProcessorRegistry, coders: CoderRegistry = .standard, chains: ChainCache? = nil) throws {
        // A job with renditions has no chain of its own (`Job.renditionsChain`).
        let chain =
            job.renditions != nil
            ? ProcessorChain() : try chains?.chain(job.chain, processors: processors) ?? processors.chain(from: job.chain)
        let format = try Self.format(job.format, coders: coders)
        var encoding = EncodeOptions()
        if let quality = job.quality { encoding.quality = quality }
        renditions = try job.renditions?.map { rendition in
            try PlannedRendition(rendition, job: job, processors: processors, coders: coders, chains: chains)
        }
        request = ImageRequest(
            source: SourceReference(job.source), chain: chain,
            output: OutputOptions(
                format: format, encoding: encoding, frames: job.firstFrameOnly == true ? .first : .all,
                keep: try MetadataKeep.parse(job.keep ?? []).get(), placeholders: JobPlaceholders.set(job.placeholders)))
        self.job = job
        template = try job.name.map { text throws(OutputNameError) in try OutputNameTemplate(parsing: text) }
    }

    /// The writable format named `name`, or nil for none. - Throws: `WorkerError` for an unwritable one.
    static func format(_ name: String?, coders: CoderRegistry) throws -> ImageFormat? {
        guard let name else { return nil }
        guard let known = coders.writableFormat(named: name) else { throw WorkerError.unsupportedFormat(name) }
        return known
    }

    /// Who the output is recorded as written by.
    var owner: OutputOwner { OutputOwner(job: job.id.rawValue, batch: job.batch) }

    /// The file name for a result in `format`, and — under the default template only — the name
    /// to step around another batch's file to: the job id's, which only this job writes.
    /// - Throws: `OutputNameError` when the name is over 255 bytes or hidden.
    func outputNames(for format: ImageFormat) throws(OutputNameError) -> (name: String, fallback: String?) {
        let fields = OutputNameFields(job: job, ext: format.fileExtension)
        guard let template else {
            return (try OutputNameTemplate.default.render(fields), fields.id + "." + format.fileExtension)
        }
        return (try template.render(fields), nil)
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
