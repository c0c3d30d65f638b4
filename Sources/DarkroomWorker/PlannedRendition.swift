import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomQueue
import DarkroomSystem

/// One rendition of a job, checked before any work as the job's own chain is: its chain against
/// this worker's processors, its format against its encoders. A rendition without a format or
/// quality takes the job's.
struct PlannedRendition: Sendable {
    var rendition: JobRendition
    var request: RenditionRequest
    /// `ChainDigest` of the rendition's chain: `{chain}` in its output name.
    var chainDigest: String

    var name: String { rendition.name }

    /// - Throws: `ChainError` (`.unknownProcessor` hands the job back), `WorkerError` for an
    ///   unwritable format.
    init(_ rendition: JobRendition, job: Job, processors: ProcessorRegistry, coders: CoderRegistry, chains: ChainCache?) throws {
        let chain =
            rendition.chain.isEmpty
            ? ProcessorChain() : try chains?.chain(rendition.chain, processors: processors) ?? processors.chain(from: rendition.chain)
        var encoding = EncodeOptions()
        if let quality = rendition.quality ?? job.quality { encoding.quality = quality }
        let format = try JobPlan.format(rendition.format ?? job.format, coders: coders)
        self.rendition = rendition
        request = RenditionRequest(
            name: rendition.name, chain: chain,
            output: OutputOptions(
                format: format, encoding: encoding, frames: .first, keep: try MetadataKeep.parse(job.keep ?? []).get(),
                placeholders: JobPlaceholders.set(job.placeholders)))
        chainDigest = ChainDigest.of(rendition.chain)
    }
}

extension JobPlan {
    /// The file name for rendition `rendition` in `format` (its `{name}` the rendition's, `{chain}`
    /// its chain's digest), and — under the default template (`{stem}-{name}.{ext}`) only — the
    /// name to step around another batch's file to: `{id}-{name}.{ext}`, which only this job writes.
    func outputNames(for format: ImageFormat, rendition: PlannedRendition) throws(OutputNameError) -> (name: String, fallback: String?) {
        var fields = OutputNameFields(job: job, ext: format.fileExtension, chainDigest: rendition.chainDigest)
        fields.name = rendition.name
        guard let template else {
            return (try OutputNameTemplate.renditionsDefault.render(fields), try OutputNameTemplate.renditionsFallback.render(fields))
        }
        return (try template.render(fields), nil)
    }
}
