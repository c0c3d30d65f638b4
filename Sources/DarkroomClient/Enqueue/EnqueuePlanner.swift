import DarkroomChains
import DarkroomQueue

/// The planner's answer: every job, or every problem (and then nothing may be enqueued).
public enum EnqueuePlan: Sendable {
    /// Every request became a job; send them.
    case jobs([Job])
    /// Some requests are bad; send nothing.
    case problems([EnqueueProblem])
}

/// Turns requests into validated job records: absolute paths, canonical chains, checked formats,
/// ids. Nothing is sent; the caller enqueues only when there is no problem at all.
public enum EnqueuePlanner {
    /// How many problems a plan reports before it stops looking (a list with one mistake per line
    /// would otherwise bury the first in thousands).
    public static let maxProblems = 20

    /// The jobs for `requests`, or the problems (a bad `defaults.chain` or format alone, since
    /// every job would repeat it). `listName` names the `--from` file in problem locations;
    /// `validator` remembers each chain text it has checked, and the notes it made.
    ///
    /// `formats` are those output formats are checked against (a plugin module may add a format;
    /// the standard formats by default).
    public static func plan(
        _ requests: [JobRequest], defaults: EnqueueDefaults, validator: inout ChainValidator,
        listName: String?, formats: EnqueueFormats = .standard, now: Timestamp = .now(),
        maxProblems: Int = EnqueuePlanner.maxProblems
    ) async throws -> EnqueuePlan {
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
        if let format = defaults.format, let problem = formatProblem(format, formats: formats) {
            return .problems([EnqueueProblem(.unknownFormat, location: "--format", message: problem)])
        }
        if let name = defaults.name, var problem = nameProblem(name) {
            problem.location = "--name"
            return .problems([problem])
        }
        var shared = defaults
        shared.output = defaults.output.map { PathResolver.output($0, from: defaults.workingDirectory) }
        shared.format = defaults.format.map { formats.canonicalName($0) ?? $0 }
        let notBefore = defaults.delay.map { now.adding($0) }
        var jobs: [Job] = []
        jobs.reserveCapacity(requests.count)
        for request in requests {
            if problems.count >= maxProblems { break }
            do {
                jobs.append(
                    try await job(
                        for: request, defaults: shared, defaultChain: defaultChain,
                        notBefore: notBefore, now: now, validator: &validator, formats: formats))
            } catch var problem as EnqueueProblem {
                // Built only for a problem: formatting it for every job would cost more than the job.
                problem.location = location(of: request, listName: listName)
                problems.append(problem)
            }
        }
        guard problems.isEmpty else { return .problems(problems) }
        return settleNames(jobs, requests: requests, listName: listName, maxProblems: maxProblems)
    }

    /// The job for `request`; `defaults` has its output absolute and its format canonical already.
    /// Problems are thrown without a location (the caller adds it).
    private static func job(
        for request: JobRequest, defaults: EnqueueDefaults, defaultChain: String?,
        notBefore: Timestamp?, now: Timestamp, validator: inout ChainValidator, formats: EnqueueFormats
    ) async throws -> Job {
        let source = PathResolver.source(request.source, from: defaults.workingDirectory)
        if request.renditions != nil, request.chain != nil {
            throw EnqueueProblem(.invalidJob, location: nil, message: "give \"chain\" or \"renditions\", not both: each rendition has its chain")
        }
        // The batch's renditions go to requests that give neither their own renditions nor their
        // own chain: a line with a chain asks for that one output.
        let requested = request.renditions ?? (request.chain == nil ? defaults.renditions : nil)
        let renditions = try await canonicalRenditions(requested, validator: &validator, formats: formats)
        let chain: String
        if renditions != nil {
            chain = Job.renditionsChain
        } else if let text = request.chain {
            do {
                chain = try await validator.canonicalize(text)
            } catch let error as ChainError {
                throw EnqueueProblem.chain(error, text: text, location: nil)
            }
        } else if let defaultChain {
            chain = defaultChain
        } else {
            throw EnqueueProblem(.noChain, location: nil, message: "no chain: pass -p CHAIN, or give this line a \"chain\" key")
        }
        var format = defaults.format
        if let requested = request.format {
            if let problem = formatProblem(requested, formats: formats) { throw EnqueueProblem(.unknownFormat, location: nil, message: problem) }
            format = formats.canonicalName(requested) ?? requested
        }
        if let name = request.name, let problem = nameProblem(name) { throw problem }
        let name = request.name ?? defaults.name
        if let renditions, let problem = renditionsNameProblem(name, count: renditions.count) { throw problem }
        let quality = request.quality ?? defaults.quality
        let output = request.output.map { PathResolver.output($0, from: defaults.workingDirectory) } ?? defaults.output
        if let output, PathResolver.isURL(output), !Capabilities.isObjectStorageDestination(output) {
            throw EnqueueProblem(
                .invalidJob, location: nil,
                message:
                    "'output' '\(SafeText.sanitized(String(output.prefix(80))))' is neither a directory nor an s3:// destination (s3://BUCKET/PREFIX/)"
            )
        }
        let firstFrameOnly = request.firstFrameOnly ?? defaults.firstFrameOnly
        let keep = request.keep ?? defaults.keep
        let placeholders = request.placeholders ?? defaults.placeholders
        let id: JobID
        if let text = request.id {
            guard let parsed = JobID(rawValue: text) else {
                throw EnqueueProblem(
                    .invalidID, location: nil, message: "'id' cannot be a job id: ids are 1–200 bytes without control characters")
            }
            id = parsed
        } else if defaults.idFromSource {
            // The source and what shapes the output: a second size of one source is a second job.
            let derived = DerivedIDs.jobID(
                source: source, chain: renditions.map(renditionsWork) ?? chain, format: format, quality: quality, firstFrameOnly: firstFrameOnly,
                output: output, name: name, keep: keep, placeholders: placeholders)
            guard let parsed = JobID(rawValue: derived) else { preconditionFailure("a derived id is always valid: \(derived)") }
            id = parsed
        } else {
            id = JobID.make(now: now)
        }
        let chainRequirements =
            try renditions.map { try renditionRequirements($0, validator: &validator) }
            ?? validator.processorRequirements(ofCanonical: chain)
        let requires = Capabilities.canonical(
            chainRequirements
                + Capabilities.features(
                    name: name, metadata: request.metadata, keep: keep, renditions: renditions != nil, placeholders: placeholders)
                + Capabilities.formatRequirements(format) + (renditions ?? []).flatMap { Capabilities.formatRequirements($0.format) }
                + Capabilities.sourceRequirements(source) + Capabilities.outputRequirements(output))
        let job = Job(
            id: id, batch: defaults.batch, source: source, chain: chain,
            format: format,
            quality: quality, priority: request.priority ?? defaults.priority,
            output: output, enqueuedAt: now, notBefore: notBefore,
            firstFrameOnly: firstFrameOnly ? true : nil,
            name: name, requires: requires, metadata: request.metadata,
            webhook: request.webhook ?? defaults.webhook,
            renditions: renditions, keep: keep, placeholders: placeholders)
        if let problem = job.problem { throw EnqueueProblem(.invalidJob, location: nil, message: problem) }
        return job
    }

    /// Why `name` is not an output format of `formats`, or nil.
    public static func formatProblem(_ name: String, formats: EnqueueFormats = .standard) -> String? {
        guard formats.canonicalName(name) != nil else {
            return "unknown format '\(SafeText.sanitized(String(name.prefix(20))))'; use \(formats.names)"
        }
        return nil
    }
}
