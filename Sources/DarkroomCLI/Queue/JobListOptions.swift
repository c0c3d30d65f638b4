import ArgumentParser
import DarkroomClient
import DarkroomQueue

/// The job list of the commands that take many jobs (`enqueue`, `run`): sources as arguments or
/// `--from FILE`, and the chain and output-name template they share. One definition, so both read jobs the same way.
struct JobListOptions: ParsableArguments {
    @Argument(help: "Sources: paths, http(s):// URLs, data: URIs, or s3:// objects, prefixes (ending in /) and globs (*, ?, **).")
    var sources: [String] = []

    @Option(name: .customLong("from"), help: ArgumentHelp("A file listing one job per line (- for standard input).", valueName: "file"))
    var listFile: String?

    @Option(name: [.customShort("p"), .customLong("chain")], help: "The processor chain, e.g. \"downsample(400x400)|>blur(2)\".")
    var chain: String?

    @Option(
        name: .customLong("name"),
        help: ArgumentHelp(
            "Output file name template: {stem} {id} {batch} {chain} {ext}, {{ and }} for braces (default: {stem}.{ext}; see docs/queue.md#output-names).",
            valueName: "template"))
    var name: String?

    @OptionGroup(title: "Renditions")
    var renditions: RenditionOptions

    /// The `--rendition` options (nil: none); refused beside `-p`, since each rendition has its chain.
    func renditionList() throws(UsageFailure) -> [JobRendition]? {
        guard let list = try renditions.renditions() else { return nil }
        if chain != nil { throw UsageFailure("give each --rendition its chain instead of -p") }
        return list
    }

    /// How messages name the list file: `<stdin>` for `-`; nil without `--from`.
    var listName: String? { listFile.map { $0 == "-" ? "<stdin>" : $0 } }

    /// The jobs given (see `SourceList.requests(sources:listFile:verb:failureSuffix:)`).
    func requests(verb: String, failureSuffix: String = "") throws(UsageFailure) -> [JobRequest] {
        try SourceList.requests(sources: sources, listFile: listFile, verb: verb, failureSuffix: failureSuffix)
    }
}
