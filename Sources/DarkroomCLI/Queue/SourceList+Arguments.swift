import DarkroomClient
import Foundation

/// The CLI's side of job lists: sources given as arguments or `--from FILE`, and every mistake
/// as the line `darkroom` prints.
extension SourceList {
    /// The jobs a command was given: its source arguments, or the list in `listFile` (`-` = stdin),
    /// not both. Every bad line is reported on standard error, the last one in the thrown failure
    /// (followed by `failureSuffix`); `verb` names the command's work in "nothing to …".
    static func requests(
        sources: [String], listFile: String?, verb: String,
        failureSuffix: String = ""
    ) throws(UsageFailure) -> [JobRequest] {
        switch (sources.isEmpty, listFile) {
        case (false, .some):
            throw UsageFailure("give sources or --from FILE, not both")
        case (true, nil):
            throw UsageFailure("nothing to \(verb): give one or more sources, or --from FILE (- for standard input)")
        case (false, nil):
            return sources.map { JobRequest(source: $0) }
        case (true, .some(let file)):
            let data = try readForCommand(file)
            switch parse(data, name: file == "-" ? "<stdin>" : file) {
            case .success(let requests):
                guard !requests.isEmpty else {
                    throw UsageFailure("nothing to \(verb): \(file == "-" ? "standard input" : file) lists no sources")
                }
                return requests
            case .failure(let failure):
                for error in failure.errors.dropLast() { StandardError.line("darkroom: \(error)") }
                let more = failure.truncated ? " (stopped after \(failure.errors.count) problems)" : ""
                throw UsageFailure("\(failure.errors.last.map { "\($0)" } ?? "bad list")\(more)\(failureSuffix)")
            }
        }
    }

    /// `read`, its failure said in terms of the `--from` flag.
    private static func readForCommand(_ file: String) throws(UsageFailure) -> Data {
        do throws(SourceListReadFailure) {
            return try read(file)
        } catch {
            switch error {
            case .standardInput(let reason):
                throw UsageFailure("cannot read the job list from standard input (\(reason ?? "read error")); pipe the list in, or use --from FILE")
            case .file(let path):
                throw UsageFailure("cannot read --from file '\(path)'")
            }
        }
    }
}
