import ArgumentParser
import DarkroomCache
import DarkroomPipeline
import DarkroomPlugins

/// The flags of the commands that render in this process (`process`, `run`) besides their own:
/// limits, the source policy, the cache choice, buckets. They become one pipeline configuration here,
/// so the two commands cannot drift apart.
struct LocalRenderOptions: ParsableArguments {
    @OptionGroup
    var limits: LimitOptions

    @OptionGroup(title: "Sources")
    var sources: SourcePolicyOptions

    @Option(help: "Shared cache directory (default: $DARKROOM_CACHE_DIR; none: compute every time).")
    var cache: String?

    @Flag(help: "Use no cache even when DARKROOM_CACHE_DIR is set.")
    var noCache = false

    @OptionGroup(title: "Object storage")
    var s3: S3Options

    /// How outputs go into a bucket when `--out` (or `process -o`) names one; the sweep flags are
    /// a worker's and have no effect here.
    @OptionGroup(title: "Outputs to buckets")
    var s3Outputs: S3OutputOptions

    @OptionGroup(title: "Plugins")
    var plugins: PluginOptions

    /// The pipeline configuration for `cores` processing threads: `renderLimits` (from `limits`,
    /// which callers check before anything else), the coders and providers of `catalog`, the
    /// source policy for a command line a person typed, and the chosen disk cache, opened now (nil
    /// for none).
    func pipelineConfiguration(renderLimits: RenderLimits, cores: Int, catalog: PluginCatalog) throws(UsageFailure)
        -> ImagePipeline.Configuration
    {
        var configuration = ImagePipeline.Configuration()
        configuration.coders = catalog.coders
        configuration.providers = try s3.providers(adding: catalog.providers)
        configuration.limits = renderLimits
        configuration.sourcePolicy = try sources.policy(typedByAPerson: true)
        configuration.diskCache = try CacheDirectory.open(flag: cache, disabled: noCache)
        configuration.maxConcurrentProcessing = cores
        return configuration
    }
}
