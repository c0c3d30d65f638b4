import DarkroomChains
import DarkroomQueue

/// Output names at enqueue: templates checked, and the names of one request settled
/// (`OutputClaims`) so that no two of its jobs write one path.
extension EnqueuePlanner {
    /// Why `template` is not an output-name template (its code a `name.*`), or nil.
    public static func nameProblem(_ template: String) -> EnqueueProblem? {
        do throws(OutputNameError) {
            _ = try OutputNameTemplate(parsing: template)
            return nil
        } catch {
            return EnqueueProblem(code: error.code.rawValue, location: nil, message: "bad output name [\(error.code.rawValue)]: \(error.message)")
        }
    }

    /// `jobs` with their output names settled: a job under the default template whose name an
    /// earlier one has gets `name` `{stem}-{chain}.{ext}` (so it requires `output-name`); any clash left is a problem at the
    /// later job's place, naming both.
    static func settleNames(_ jobs: [Job], requests: [JobRequest], listName: String?, maxProblems: Int) -> EnqueuePlan {
        var templates: [String: OutputNameTemplate] = [:]
        var digests: [String: String] = [:]
        var indices: [Int] = []
        var claims: [OutputClaim] = []
        for (index, job) in jobs.enumerated() {
            guard let claim = claim(for: job, templates: &templates, digests: &digests) else { continue }
            indices.append(index)
            claims.append(claim)
        }
        let settlement = OutputClaims.settle(claims, maxProblems: maxProblems)
        guard settlement.problems.isEmpty else {
            return .problems(
                settlement.problems.map { problem in
                    let request = requests[indices[problem.index]]
                    return EnqueueProblem(
                        code: problem.error.code.rawValue, location: location(of: request, listName: listName),
                        message: "bad output name [\(problem.error.code.rawValue)]: \(problem.error.message)")
                })
        }
        var settled = jobs
        for (claimIndex, renamed) in settlement.renamed.enumerated() where renamed {
            settled[indices[claimIndex]].name = OutputNameTemplate.collisionText
            settled[indices[claimIndex]].require(Capabilities.features(name: OutputNameTemplate.collisionText))
        }
        return .jobs(settled)
    }

    /// The claim `job` makes on its output directory's names; nil when it writes no file.
    /// `templates` and `digests` remember each template parsed and chain digested: a request
    /// usually has one of each for all its jobs.
    static func claim(
        for job: Job, templates: inout [String: OutputNameTemplate], digests: inout [String: String]
    ) -> OutputClaim? {
        guard let directory = job.output else { return nil }
        var template: OutputNameTemplate?
        if let text = job.name {
            template = templates[text] ?? (try? OutputNameTemplate(parsing: text))
            templates[text] = template
        }
        let digest = digests[job.chain] ?? ChainDigest.of(job.chain)
        digests[job.chain] = digest
        var fields = OutputNameFields(job: job, ext: job.format.map(OutputFormats.fileExtension(of:)), chainDigest: digest)
        var work =
            [job.source, job.chain, job.format ?? "", job.quality.map { "\($0)" } ?? "", job.firstFrameOnly == true ? "1" : ""]
            + (job.keep.map { ["keep=" + $0.joined(separator: ",")] } ?? [])
        if let renditions = job.renditions {
            // Renditions are named by their own default, which is never renamed: the claim stands
            // for every rendition, its `{name}` shown as the field.
            template = template ?? .renditionsDefault
            fields.name = "{name}"
            work.append(renditionsWork(renditions))
        }
        return OutputClaim(
            directory: directory, template: template,
            fields: fields,
            work: work.joined(separator: "\u{0}"),
            label: "source '\(SafeText.sanitized(String(job.source.prefix(80))))' with chain '\(SafeText.sanitized(String(job.chain.prefix(80))))'")
    }

    /// Where a problem with `request` is: `list.txt:12`, or the source.
    static func location(of request: JobRequest, listName: String?) -> String {
        request.line.map { "\(listName ?? "-"):\($0)" } ?? "source '\(SafeText.sanitized(String(request.source.prefix(80))))'"
    }
}
