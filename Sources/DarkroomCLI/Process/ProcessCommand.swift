import ArgumentParser
import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomSources
import DarkroomSystem
import Foundation

/// `darkroom process INPUT… -p CHAIN (-o OUTPUT | --out DIR)`: one-shot processing of files.
struct ProcessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Process image files with a chain and write the results.",
        discussion: """
            One input writes -o FILE (format from --format, else from the extension). Several inputs
            write into --out DIR, in parallel, named by --name (default {stem}.{ext}: the base name with
            the output format's extension); when two would get one name, the later gets
            {stem}-{chain}.{ext}, and a clash that leaves (or any clash under --name) is refused. Formats of inputs are detected from their bytes, never their names.
            -o s3://[ALIAS@]BUCKET/KEY writes one object under KEY as given, --out s3://[ALIAS@]BUCKET/PREFIX/
            objects under PREFIX (a bucket allowed with --allow-bucket); each output's URL and ETag are printed.
            Exit status: 0 when every image succeeded, 1 when any failed, 2 for bad usage.
            """
    )

    @Argument(help: "Images to process: paths, http(s):// URLs or data: URIs (JPEG, PNG, WebP, GIF or AVIF).")
    var inputs: [String] = []

    @Option(name: [.customShort("p"), .customLong("chain")], help: "The processor chain, e.g. \"downsample(400x400)|>blur(2)\". Omit to only re-encode.")
    var chainText: String?

    @Option(name: .short, help: "Output file (one input only), or s3://[ALIAS@]BUCKET/KEY.")
    var output: String?

    @Option(name: .customLong("out"), help: "Output directory (created if missing), or s3://[ALIAS@]BUCKET/PREFIX/.")
    var outputDirectory: String?

    @Option(
        help: ArgumentHelp(
            "Name template for --out: {stem} {id} {batch} {chain} {ext}, {{ and }} for braces (default: {stem}.{ext}; see docs/queue.md#output-names).",
            valueName: "template"))
    var name: String?

    @Option(help: "Output format: jpeg, png, webp or avif. Default: from -o's extension, else the source's (JPEG with transparency becomes PNG).")
    var format: String?

    @Option(help: "Quality 1-100 for JPEG, lossy WebP and AVIF.")
    var quality: Int = 80

    @Flag(
        name: .customLong("first-frame-only"),
        help: "Process only the first frame of an animated GIF or WebP, as a still image (default: every frame, into an animated WebP).")
    var firstFrameOnly = false

    @Flag(help: "Write progressive JPEG.")
    var progressive = false

    @Flag(help: "Write lossless WebP or AVIF.")
    var lossless = false

    @Option(
        name: .customLong("avif-speed"),
        help: "AVIF encoder speed, 0 (slowest, smallest) to 10 (fastest); default 6 (see docs/formats-and-color.md#avif).")
    var avifSpeed: Int?

    @Option(name: [.customShort("j"), .long], help: "Images processed at once (default: the number of cores).")
    var concurrency: Int?

    @Flag(help: "Print one JSON record per image on standard output.")
    var json = false

    @OptionGroup(title: "Renditions")
    var renditionOptions: RenditionOptions

    @OptionGroup
    var keep: KeepOptions

    @OptionGroup
    var placeholders: PlaceholderOptions

    @OptionGroup
    var rendering: LocalRenderOptions

    func run() async throws {
        let chain: ProcessorChain
        let keepSet: MetadataKeep
        let placeholderSet: Set<PlaceholderKind>
        let outputFormat: ImageFormat?
        let plan: ProcessPlan
        let renditions: [ProcessRunner.Rendition]
        let configuration: ImagePipeline.Configuration
        var bucketOutputs: (any OutputSink)?
        let cores = concurrency ?? Cores.count
        let catalog = rendering.plugins.loadCatalog()
        do {
            chain =
                try chainText.map { text throws(UsageFailure) in
                    do { return try catalog.processors.chain(from: text) } catch { throw UsageFailure("bad chain: \(error)") }
                } ?? ProcessorChain()
            outputFormat = try format.map { name throws(UsageFailure) in
                guard let format = catalog.coders.writableFormat(named: name) else {
                    throw UsageFailure("unknown --format '\(name)'; use \(catalog.coders.writableFormatNames)")
                }
                return format
            }
            guard (1...100).contains(quality) else { throw UsageFailure("--quality must be 1…100 (got \(quality))") }
            keepSet = try keep.set()
            placeholderSet = try placeholders.set()
            guard concurrency.map({ $0 >= 1 }) ?? true else { throw UsageFailure("--concurrency must be at least 1") }
            let renderLimits = try rendering.limits.renderLimits()
            renditions = try planRenditions(catalog: catalog, format: outputFormat, keep: keepSet, placeholders: placeholderSet)
            plan = try ProcessPlan.make(
                inputs: inputs, outputFile: output, outputDirectory: outputDirectory, format: outputFormat, coders: catalog.coders,
                name: name, chain: chain.canonicalText, renditions: renditions.count)
            // A bucket is checked before any source is read: a refused one costs nothing.
            if let destination = output.flatMap(BucketOutput.split)?.destination ?? outputDirectory, BucketOutput.isBucket(destination) {
                bucketOutputs = try await BucketOutput.sink(
                    for: destination, flag: output == nil ? "--out" : "-o", s3: rendering.s3, outputs: rendering.s3Outputs)
            }
            configuration = try rendering.pipelineConfiguration(renderLimits: renderLimits, cores: cores, catalog: catalog)
            if let outputDirectory, bucketOutputs == nil {
                do { try FileIO.createDirectory(outputDirectory) } catch { throw UsageFailure("\(error)") }
            }
        } catch let failure as UsageFailure {
            throw failure.exit()
        }

        let hasNetworkSources = plan.items.contains { ["http", "https", "s3"].contains(SourceReference($0.input).scheme) }
        let runner = ProcessRunner(
            plan: plan, chain: chain, renditions: renditions, pipeline: ImagePipeline(configuration: configuration),
            output: OutputOptions(
                format: plan.format,
                encoding: EncodeOptions(quality: quality, progressive: progressive, lossless: lossless, avifSpeed: avifSpeed),
                frames: firstFrameOnly ? .first : .all, keep: keepSet, placeholders: placeholderSet),
            // Downloads wait on the network, so more images than cores may be in flight; each holds
            // its source (≤ --max-source-mb), so the number stays small to bound memory.
            inFlight: min(plan.items.count, hasNetworkSources ? cores * 4 : cores), bucketOutputs: bucketOutputs)
        let json = self.json
        let encoder = RecordJSON.encoder()
        let outcome = await runner.run { record in
            if json, let data = try? encoder.encode(record) {
                StandardOutput.line(String(decoding: data, as: UTF8.self))
            } else if record.succeeded, !json {
                StandardOutput.line(Self.summary(of: record))
            }
            if let error = record.error {
                StandardError.line("darkroom: \(error.message) [\(error.code)]")
            }
        }
        // Hit counts are flushed to the shared stats file so `darkroom cache stats` can report a ratio.
        configuration.diskCache?.flushStatistics()
        if outcome.failed > 0 {
            StandardError.line("darkroom: \(outcome.failed) of \(plan.items.count) image\(plan.items.count == 1 ? "" : "s") failed")
            throw ExitCode(1)
        }
    }

    static func summary(of record: ImageRecord) -> String {
        guard let result = record.result else { return SourceDisplay.short(record.source) }
        if let renditions = result.renditions {
            let lines = renditions.map { rendition in
                "\(SourceDisplay.short(record.source)) → \(rendition.output ?? "?")  \(rendition.width)x\(rendition.height) \(rendition.format) \(rendition.bytes) bytes  (\(rendition.name), \(rendition.cache == .miss ? "made" : "from the \(rendition.cache.rawValue) cache"))"
                    + (rendition.etag.map { "  ETag \($0)" } ?? "") + PlaceholderOptions.summary(rendition.placeholders)
            }
            return lines.joined(separator: "\n")
        }
        let ms = result.ms
        let timing =
            result.cache == .miss
            ? String(format: "decode %.1f ms, process %.1f ms, encode %.1f ms", ms.decode ?? 0, ms.process ?? 0, ms.encode ?? 0)
            : "from the \(result.cache.rawValue) cache"
        let animated = record.firstFrameOnly == true ? ", first frame of \(record.input?.frames ?? 0)" : ""
        return
            "\(SourceDisplay.short(record.source)) → \(result.output ?? "?")  \(result.width)x\(result.height) \(result.format) \(result.bytes) bytes  (\(timing)\(animated))"
            + (result.etag.map { "  ETag \($0)" } ?? "") + PlaceholderOptions.summary(result.placeholders)
    }
}
