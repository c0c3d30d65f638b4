import DarkroomQueue

/// One job's claim on an output name, for `OutputClaims.settle`.
public struct OutputClaim: Sendable {
    /// The output directory (absolute and normalised, so equal directories are equal strings).
    public var directory: String
    /// The job's template; nil for the default, which may be changed to settle a clash.
    public var template: OutputNameTemplate?
    /// The fields' values; `ext` nil when the job keeps its source's format.
    public var fields: OutputNameFields
    /// What the job makes (source, chain, format…): claims with equal `work` write the same bytes
    /// and may share a name, as a redelivery does.
    public var work: String
    /// How messages name the job: its source and chain.
    public var label: String

    public init(directory: String, template: OutputNameTemplate?, fields: OutputNameFields, work: String, label: String) {
        self.directory = directory
        self.template = template
        self.fields = fields
        self.work = work
        self.label = label
    }
}

/// Settles the output names of one request (one `enqueue`, one `--from` file, one `run` or
/// `process`): no two jobs may write one path, so names do not depend on which job finishes first.
///
/// Explicit templates first, in request order: two that give one path refuse the request. Then
/// default templates, in request order: the first keeps `{stem}.{ext}`; a later one whose name is
/// taken gets `{stem}-{chain}.{ext}`, and if that is taken too, the request is refused. Jobs that
/// make the same thing (equal `work`) share a name. A job that keeps its source's format has no
/// known extension: its name clashes with every name that differs from it only in the extension.
public enum OutputClaims {
    /// A refused claim: `name.collision` (or `name.too-long`, `name.hidden`).
    public struct Problem: Sendable, Equatable {
        /// The claim's index.
        public var index: Int
        public var error: OutputNameError
    }

    /// What settling gave.
    public struct Settlement: Sendable, Equatable {
        /// For each claim, whether it was renamed to `OutputNameTemplate.collision`.
        public var renamed: [Bool]
        /// The refused claims, in claim order.
        public var problems: [Problem]
    }

    private struct Holder {
        var index: Int
        var ext: String?
        var work: String
    }

    /// Settles `claims`; stops looking after `maxProblems` problems.
    public static func settle(_ claims: [OutputClaim], maxProblems: Int = .max) -> Settlement {
        var renamed = [Bool](repeating: false, count: claims.count)
        var problems: [Problem] = []
        // Names by directory and name with the extension left out; the extension is compared apart.
        var holders: [String: [Holder]] = [:]

        func key(_ claim: OutputClaim, _ template: OutputNameTemplate) throws(OutputNameError) -> String {
            var fields = claim.fields
            // With the real extension first, so the length is checked on the real name.
            if fields.ext != nil { _ = try template.render(fields) }
            fields.ext = nil
            return claim.directory + "\u{0}" + (try template.render(fields))
        }
        func holder(of key: String, for claim: OutputClaim) -> Holder? {
            holders[key]?.first { held in
                held.work != claim.work && (held.ext == nil || claim.fields.ext == nil || held.ext == claim.fields.ext)
            }
        }
        func refuse(_ index: Int, against other: Int, name: String) {
            let ext = claims[index].fields.ext ?? "{ext}"
            let path = claims[index].directory + "/" + name.split(separator: "\u{0}", omittingEmptySubsequences: false).joined(separator: ext)
            let message =
                "\(claims[index].label) and \(claims[other].label) would both write '\(path)'; "
                + "give them different names (--name with {chain} or {id}), different outputs, or a --format"
            problems.append(Problem(index: index, error: OutputNameError(.collision, message)))
        }

        let order = claims.indices.filter { claims[$0].template != nil } + claims.indices.filter { claims[$0].template == nil }
        for index in order where problems.count < maxProblems {
            let claim = claims[index]
            do throws(OutputNameError) {
                let template = claim.template ?? .default
                var name = try key(claim, template)
                var other = holder(of: name, for: claim)
                if other != nil, claim.template == nil {
                    let second = try key(claim, .collision)
                    if let taken = holder(of: second, for: claim) {
                        refuse(index, against: taken.index, name: String(second.drop { $0 != "\u{0}" }.dropFirst()))
                        continue
                    }
                    renamed[index] = true
                    (name, other) = (second, nil)
                }
                if let other {
                    refuse(index, against: other.index, name: String(name.drop { $0 != "\u{0}" }.dropFirst()))
                    continue
                }
                holders[name, default: []].append(Holder(index: index, ext: claim.fields.ext, work: claim.work))
            } catch {
                problems.append(Problem(index: index, error: error))
            }
        }
        problems.sort { $0.index < $1.index }
        return Settlement(renamed: renamed, problems: problems)
    }
}
