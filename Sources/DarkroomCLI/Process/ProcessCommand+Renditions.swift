import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomPlugins
import DarkroomQueue
import DarkroomSystem

extension ProcessCommand {
    /// The `--rendition` options bound against this build's processors and encoders; each takes
    /// `--format` and `--quality` unless it gives its own, and all keep what `--keep` asks.
    func planRenditions(
        catalog: PluginCatalog, format: ImageFormat?, keep keepSet: MetadataKeep, placeholders: Set<PlaceholderKind> = []
    ) throws(UsageFailure) -> [ProcessRunner.Rendition] {
        guard let list = try renditionOptions.renditions() else { return [] }
        if chainText != nil { throw UsageFailure("give each --rendition its chain instead of -p") }
        return try list.map { rendition throws(UsageFailure) in
            let chain: ProcessorChain
            do { chain = rendition.chain.isEmpty ? ProcessorChain() : try catalog.processors.chain(from: rendition.chain) } catch {
                throw UsageFailure("--rendition \(rendition.name): bad chain: \(error)")
            }
            var renditionFormat = format
            if let name = rendition.format {
                guard let known = catalog.coders.writableFormat(named: name) else {
                    throw UsageFailure("--rendition \(rendition.name): unknown format '\(name)'; use \(catalog.coders.writableFormatNames)")
                }
                renditionFormat = known
            }
            let encoding = EncodeOptions(
                quality: rendition.quality ?? quality, progressive: progressive, lossless: lossless, avifSpeed: avifSpeed)
            return ProcessRunner.Rendition(
                request: RenditionRequest(
                    name: rendition.name, chain: chain,
                    output: OutputOptions(
                        format: renditionFormat, encoding: encoding, keep: keepSet, placeholders: placeholders)),
                chainDigest: ChainDigest.of(chain.canonicalText))
        }
    }
}
