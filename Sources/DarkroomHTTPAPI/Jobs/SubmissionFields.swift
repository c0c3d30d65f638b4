import DarkroomClient
import DarkroomQueue

/// The fields of a submit body that are not one job's: the batch, the delay and (in a batch
/// body) the defaults every job takes unless it names its own, checked as `darkroom enqueue`
/// checks its flags.
struct SubmissionFields: Decodable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The keys of a batch body.
    static let batchKeys: Set<String> = [
        "jobs", "batch", "delay", "chain", "format", "quality", "priority", "output", "name", "firstFrameOnly", "idFromSource",
        "keep", "renditions", "placeholders",
    ]

    var batch: String?
    var delay: Duration?
    var chain: String?
    var format: String?
    var quality: Int?
    var priority: JobPriority = .normal
    var output: String?
    var name: String?
    var firstFrameOnly = false
    var idFromSource = false
    var keep: [String]?
    /// The placeholders every job's result carries unless it names its own (`JobPlaceholders`).
    var placeholders: [String]?
    /// Renditions every job makes unless it gives its own chain or renditions.
    var renditions: [JobRendition]?

    init(from decoder: any Decoder) throws { try self.init(from: decoder, batchBody: false) }

    init(from decoder: any Decoder, batchBody: Bool) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func problem(_ message: String) -> EnqueueRefusal { EnqueueRefusal(problems: [JobSubmission.problem(message, location: nil)]) }
        func string(_ key: String) throws -> String? {
            guard let value = try container.decodeIfPresent(String.self, forKey: Key(key)) else { return nil }
            if value.isEmpty { throw problem("'\(key)' is empty; leave it out for the default") }
            return value
        }
        batch = try string("batch")
        if let batch, JobID(rawValue: batch) == nil { throw problem("'batch' must be 1–200 bytes without control characters") }
        if let seconds = try container.decodeIfPresent(Double.self, forKey: Key("delay")) {
            guard seconds.isFinite, (0...365 * 86_400).contains(seconds) else { throw problem("'delay' must be 0…31536000 seconds (got \(seconds))") }
            delay = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        guard batchBody else { return }
        if let unknown = container.allKeys.map(\.stringValue).filter({ !Self.batchKeys.contains($0) }).sorted().first {
            throw problem("unknown key '\(unknown.prefix(40))'; the keys are \(Self.batchKeys.sorted().joined(separator: ", "))")
        }
        chain = try string("chain")
        format = try string("format")
        output = try string("output")
        name = try string("name")
        quality = try container.decodeIfPresent(Int.self, forKey: Key("quality"))
        if let quality, !(1...100).contains(quality) { throw problem("'quality' must be 1…100 (got \(quality))") }
        if let text = try string("priority") {
            guard let value = JobPriority(rawValue: text.lowercased()) else {
                throw problem("'priority' must be high, normal or low (got '\(text.prefix(20))')")
            }
            priority = value
        }
        firstFrameOnly = try container.decodeIfPresent(Bool.self, forKey: Key("firstFrameOnly")) ?? false
        idFromSource = try container.decodeIfPresent(Bool.self, forKey: Key("idFromSource")) ?? false
        if let names = try container.decodeIfPresent([String].self, forKey: Key("keep")) {
            do { keep = try JobKeep.checked(names) } catch { throw problem(error.message) }
        }
        if let names = try container.decodeIfPresent([String].self, forKey: Key("placeholders")) {
            do { placeholders = try JobPlaceholders.checked(names) } catch { throw problem(error.message) }
        }
        renditions = try container.decodeIfPresent([JobRendition].self, forKey: Key("renditions"))
        if renditions != nil, chain != nil { throw problem("give \"chain\" or \"renditions\", not both: each rendition has its chain") }
    }

    /// The submission of `requests` with these fields. Without a batch, the batch is derived from
    /// the ids when every job names one (so the same request lands in the same batch, as
    /// `darkroom enqueue` does), else a new id.
    func submission(_ requests: [JobRequest], workingDirectory: String) throws -> JobSubmission {
        var defaults = EnqueueDefaults(
            chain: chain, format: format, quality: quality, priority: priority, delay: delay, output: output,
            idFromSource: idFromSource, batch: batch ?? JobID.make().rawValue, workingDirectory: workingDirectory,
            firstFrameOnly: firstFrameOnly, name: name)
        defaults.keep = keep
        defaults.placeholders = placeholders
        defaults.renditions = renditions
        return JobSubmission(requests: requests, defaults: defaults, batchGiven: batch != nil)
    }

    /// How a type is named in a message.
    static func noun(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        default: "\(type)"
        }
    }
}
