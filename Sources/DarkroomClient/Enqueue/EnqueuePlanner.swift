import DarkroomCodecs
import DarkroomCore
import DarkroomQueue

/// The flags of `darkroom enqueue` that every job takes unless its `--from` line overrides them.
struct EnqueueDefaults: Sendable {
    var chain: String?
    var format: String?
    var quality: Int?
    var priority: JobPriority = .normal
    /// Jobs are not handed out before now + delay.
    var delay: Duration?
    /// Destination directory (made absolute).
    var output: String?
    /// Use the (absolute) source as the job id, so enqueueing it again is a no-op.
    var idFromSource = false
    var batch: String
    /// Where relative paths are resolved from.
    var workingDirectory: String
}

/// A reason a job cannot be enqueued, tied to its place (`list.txt:12`, `-p`, or a source).
struct EnqueueProblem: Error, Sendable, Equatable {
    var location: String?
    var message: String
    /// Extra lines shown under the message (the chain with a caret under the bad column).
    var detail: [String] = []

    /// The lines to print, each prefixed `darkroom: ` by the caller for the first.
    var lines: [String] {
        [(location.map { "\($0): " } ?? "") + message] + detail
    }

    static func chain(_ error: ChainError, text: String, location: String?) -> EnqueueProblem {
        let caret = String(repeating: " ", count: max(error.column - 1, 0)) + "^"
        return EnqueueProblem(location: location, message: "bad chain [\(error.code.rawValue)]: \(error)",
                              detail: ["    " + EventFormatting.sanitized(text), "    " + caret])
    }
}

/// The planner's answer: every job, or every problem (and then nothing may be enqueued).
enum EnqueuePlan {
    case jobs([Job])
    case problems([EnqueueProblem])
}

/// Turns requests into validated job records: absolute paths, canonical chains, checked formats,
/// ids. Nothing is sent; the caller enqueues only when there is no problem at all.
enum EnqueuePlanner {
    static func plan(_ requests: [JobRequest], defaults: EnqueueDefaults, validator: inout ChainValidator,
                     listName: String?, now: Timestamp = .now(), maxProblems: Int = 20) async throws -> EnqueuePlan {
        var problems: [EnqueueProblem] = []
        // The -p chain is checked once: if it is bad, every job would repeat the same complaint.
        var defaultChain: String?
        if let text = defaults.chain {
            do {
                defaultChain = try await validator.canonicalize(text)
            } catch let error as ChainError {
                return .problems([.chain(error, text: text, location: "-p")])
            }
        }
        if let format = defaults.format, let problem = formatProblem(format) {
            return .problems([EnqueueProblem(location: "--format", message: problem)])
        }
        var shared = defaults
        shared.output = defaults.output.map { PathResolver.absolute($0, from: defaults.workingDirectory) }
        shared.format = defaults.format.map { ImageFormat(name: $0)?.rawValue ?? $0 }
        let notBefore = defaults.delay.map { now.adding($0) }
        var jobs: [Job] = []
        jobs.reserveCapacity(requests.count)
        for request in requests {
            if problems.count >= maxProblems { break }
            do {
                jobs.append(try await job(for: request, defaults: shared, defaultChain: defaultChain,
                                          notBefore: notBefore, now: now, validator: &validator))
            } catch var problem as EnqueueProblem {
                // Built only for a problem: formatting it for every job would cost more than the job.
                problem.location = request.line.map { "\(listName ?? "-"):\($0)" }
                    ?? "source '\(EventFormatting.sanitized(String(request.source.prefix(80))))'"
                problems.append(problem)
            }
        }
        return problems.isEmpty ? .jobs(jobs) : .problems(problems)
    }

    /// The job for `request`; `defaults` has its output absolute and its format canonical already.
    /// Problems are thrown without a location (the caller adds it).
    private static func job(for request: JobRequest, defaults: EnqueueDefaults, defaultChain: String?,
                            notBefore: Timestamp?, now: Timestamp, validator: inout ChainValidator) async throws -> Job {
        let source = PathResolver.source(request.source, from: defaults.workingDirectory)
        let chain: String
        if let text = request.chain {
            do {
                chain = try await validator.canonicalize(text)
            } catch let error as ChainError {
                throw EnqueueProblem.chain(error, text: text, location: nil)
            }
        } else if let defaultChain {
            chain = defaultChain
        } else {
            throw EnqueueProblem(location: nil, message: "no chain: pass -p CHAIN, or give this line a \"chain\" key")
        }
        var format = defaults.format
        if let requested = request.format {
            if let problem = formatProblem(requested) { throw EnqueueProblem(location: nil, message: problem) }
            format = ImageFormat(name: requested)?.rawValue ?? requested
        }
        let id: JobID
        if let text = request.id ?? (defaults.idFromSource ? source : nil) {
            guard let parsed = JobID(rawValue: text) else {
                let what = request.id != nil ? "'id'" : "the source (--id-from-source)"
                throw EnqueueProblem(location: nil,
                                     message: "\(what) cannot be a job id: ids are 1–200 bytes without control characters; give an \"id\" key")
            }
            id = parsed
        } else {
            id = JobID.make(now: now)
        }
        let job = Job(id: id, batch: defaults.batch, source: source, chain: chain,
                      format: format,
                      quality: request.quality ?? defaults.quality, priority: request.priority ?? defaults.priority,
                      output: request.output.map { PathResolver.absolute($0, from: defaults.workingDirectory) } ?? defaults.output,
                      enqueuedAt: now, notBefore: notBefore)
        if let problem = job.problem { throw EnqueueProblem(location: nil, message: problem) }
        return job
    }

    /// Why `name` is not an output format workers can write, or nil.
    static func formatProblem(_ name: String) -> String? {
        guard let format = ImageFormat(name: name), format.isWritable else {
            return "unknown format '\(EventFormatting.sanitized(String(name.prefix(20))))'; use jpeg, png or webp"
        }
        return nil
    }
}

/// Makes paths absolute, because workers run elsewhere: a path only means something on the
/// shared volume, from its root.
enum PathResolver {
    /// `source` unchanged when it is a URL (`scheme://…` or `data:`), else as an absolute path.
    static func source(_ source: String, from directory: String) -> String {
        isURL(source) ? source : absolute(source, from: directory)
    }

    /// Whether `text` starts with `scheme:` followed by `//`, or is a `data:` URI.
    static func isURL(_ text: String) -> Bool {
        if text.lowercased().hasPrefix("data:") { return true }
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    /// `path` joined to `directory` when relative, with `.` and `..` segments and repeated
    /// slashes removed lexically (symbolic links are not resolved: the path must make sense on
    /// the workers, not here).
    static func absolute(_ path: String, from directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        if isNormal(joined) { return joined }
        var segments: [Substring] = []
        for segment in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": if !segments.isEmpty { segments.removeLast() }
            default: segments.append(segment)
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    /// Whether `path` (absolute) has no empty, `.` or `..` segment and no trailing slash: the
    /// common case, returned as is without splitting.
    static func isNormal(_ path: String) -> Bool {
        guard path.utf8.first == UInt8(ascii: "/") else { return false }
        var length = 0
        var onlyDots = true
        var first = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if !first && (length == 0 || (onlyDots && length <= 2)) { return false }
                first = false
                length = 0
                onlyDots = true
            } else {
                length += 1
                if byte != UInt8(ascii: ".") { onlyDots = false }
            }
        }
        return length > 0 ? !(onlyDots && length <= 2) : path == "/"
    }
}
