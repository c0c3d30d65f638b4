import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomQueue
import DarkroomSources

/// A job record turned into what the pipeline runs, checked before any work: the chain against
/// this worker's processors, the output format, and the names its output file may get.
struct JobPlan: Sendable {
    var request: ImageRequest
    /// The source's base name, or nil when it has none (then the job id names the file).
    var baseName: String?
    /// The job id as a file name: the name when the base name is taken by another job's file.
    var fallbackName: String

    /// - Throws: `ChainError` (`.unknownProcessor` when this worker lacks a processor the chain
    ///   names; the caller hands such jobs back), `WorkerError` for an unwritable format.
    init(job: Job, processors: ProcessorRegistry) throws {
        let chain = try processors.chain(from: job.chain)
        var format: ImageFormat?
        if let name = job.format {
            guard let known = ImageFormat(name: name), known.isWritable else { throw WorkerError.unsupportedFormat(name) }
            format = known
        }
        var encoding = EncodeOptions()
        if let quality = job.quality { encoding.quality = quality }
        request = ImageRequest(source: SourceReference(job.source), chain: chain,
                               output: OutputOptions(format: format, encoding: encoding))
        baseName = OutputNaming.baseName(ofSource: job.source)
        fallbackName = OutputNaming.fileName(forJobID: job.id)
    }

    /// `(preferred, fallback)` file names for a result in `format`.
    func fileNames(for format: ImageFormat) -> (preferred: String, fallback: String) {
        let ext = "." + format.fileExtension
        return ((baseName ?? fallbackName) + ext, fallbackName + ext)
    }
}
