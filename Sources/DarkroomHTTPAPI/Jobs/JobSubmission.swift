import DarkroomClient
import DarkroomQueue
import Foundation

/// A submit request's body as the client library's types: the jobs (`JobRequest`, decoded and
/// checked as `--from` lines are) and what every job takes unless it says otherwise
/// (`EnqueueDefaults`, the flags of `darkroom enqueue`).
///
/// - `POST /v1/jobs`: one object with a job line's keys plus `batch` and `delay`.
/// - `POST /v1/batches`: `{"jobs": [job…], …defaults}`; the defaults are `batch`, `delay`, `chain`,
///   `format`, `quality`, `priority`, `output`, `name`, `firstFrameOnly`, `idFromSource`, `keep` and `placeholders`.
///
/// A body that is not JSON throws `APIError.invalidJSON`; every other mistake throws an
/// `EnqueueRefusal` with one `api.invalid-field` problem per mistake (`jobs:N` for the N-th job).
struct JobSubmission: Sendable {
    var requests: [JobRequest]
    var defaults: EnqueueDefaults
    /// The body named its batch; otherwise it is derived from the ids when every job has one, or new.
    var batchGiven: Bool

    /// `POST /v1/jobs`.
    static func single(_ body: [UInt8], workingDirectory: String) throws -> JobSubmission {
        try requireObject(body)
        let decoder = JSONDecoder()
        decoder.userInfo[JobRequestJSON.otherKeys] = Set(["batch", "delay"])
        let job: JobRequestJSON
        let fields: SubmissionFields
        do {
            job = try decoder.decode(JobRequestJSON.self, from: Data(body))
            fields = try decoder.decode(SubmissionFields.self, from: Data(body))
        } catch {
            throw refusal(error, location: nil)
        }
        return try fields.submission([job.request], workingDirectory: workingDirectory)
    }

    /// `POST /v1/batches`.
    static func batch(_ body: [UInt8], workingDirectory: String) throws -> JobSubmission {
        try requireObject(body)
        let envelope: BatchEnvelope
        do {
            envelope = try JSONDecoder().decode(BatchEnvelope.self, from: Data(body))
        } catch {
            throw refusal(error, location: nil)
        }
        if !envelope.problems.isEmpty { throw EnqueueRefusal(problems: envelope.problems) }
        return try envelope.fields.submission(envelope.jobs, workingDirectory: workingDirectory)
    }

    /// Refuses a body that is not a JSON object at all (`[]`, `null`, a string) as not the JSON
    /// the endpoint takes, before decoding reads it as a job with mistakes.
    static func requireObject(_ body: [UInt8]) throws(APIError) {
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard first == UInt8(ascii: "{") else { throw APIError(.invalidJSON, "the body must be a JSON object") }
    }

    /// `error` from decoding as the refusal it is.
    static func refusal(_ error: any Error, location: String?) -> any Error {
        switch error {
        case let error as SourceListError:
            return EnqueueRefusal(problems: [problem(error.message, location: location)])
        case let error as EnqueueRefusal:
            return error
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return APIError(.invalidJSON, "the body is not JSON: \(context.underlyingError.map { "\($0)" } ?? context.debugDescription)")
        case DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty:
            return APIError(.invalidJSON, "the body must be a JSON object")
        case let error as DecodingError:
            return EnqueueRefusal(problems: [problem(describe(error), location: location)])
        default:
            return error
        }
    }

    static func problem(_ message: String, location: String?) -> EnqueueProblem {
        EnqueueProblem(code: APIError.Code.invalidField.rawValue, location: location, message: message)
    }

    /// One line naming the key and what is wrong with it.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String { "'" + keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") + "'" }
        switch error {
        case .keyNotFound(let key, let context): return "missing \(path(context.codingPath + [key]))"
        case .valueNotFound(_, let context): return "\(path(context.codingPath)) is null"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)) must be \(SubmissionFields.noun(type))"
        case .dataCorrupted(let context): return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// `POST /v1/batches`' body: its defaults, and each job (or the problem with it, so that every
/// bad job of the request is reported, up to `EnqueuePlanner.maxProblems`).
private struct BatchEnvelope: Decodable {
    var fields: SubmissionFields
    var jobs: [JobRequest] = []
    var problems: [EnqueueProblem] = []

    /// Consumes one element of any kind, so the list reads on past a bad job.
    private struct Skip: Decodable { init(from decoder: any Decoder) throws {} }

    init(from decoder: any Decoder) throws {
        fields = try SubmissionFields(from: decoder, batchBody: true)
        let container = try decoder.container(keyedBy: SubmissionFields.Key.self)
        guard container.contains(SubmissionFields.Key("jobs")) else {
            throw EnqueueRefusal(problems: [JobSubmission.problem("missing 'jobs', the array of jobs", location: nil)])
        }
        var list: any UnkeyedDecodingContainer
        do { list = try container.nestedUnkeyedContainer(forKey: SubmissionFields.Key("jobs")) } catch {
            throw EnqueueRefusal(problems: [JobSubmission.problem("'jobs' must be an array of job objects", location: nil)])
        }
        if let count = list.count, count > APIConfiguration.maxJobsPerRequest {
            throw APIError(.tooManyJobs, "\(count) jobs in one request; send at most \(APIConfiguration.maxJobsPerRequest) per request")
        }
        while !list.isAtEnd {
            let location = "jobs:\(list.currentIndex + 1)"
            do {
                var request = try list.decode(JobRequestJSON.self).request
                request.line = list.currentIndex
                jobs.append(request)
            } catch {
                _ = try? list.decode(Skip.self)
                let refusal = JobSubmission.refusal(error, location: location)
                guard let refusal = refusal as? EnqueueRefusal else { throw refusal }
                if problems.count < EnqueuePlanner.maxProblems { problems += refusal.problems }
            }
        }
        if jobs.isEmpty, problems.isEmpty {
            throw EnqueueRefusal(problems: [JobSubmission.problem("'jobs' is empty; send at least one job", location: nil)])
        }
    }
}
