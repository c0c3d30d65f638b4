import Foundation

/// A job request decoded from a JSON object with a job line's keys, checked exactly as a
/// `--from` line is (the same keys, types, ranges and messages): what an HTTP API decodes each
/// submitted job with. A decoder whose `userInfo[otherKeys]` is a `Set<String>` accepts those
/// keys too, for the caller to read from the same object.
///
/// A mistake throws `SourceListError` with the line parser's message (and no file or line).
public struct JobRequestJSON: Decodable, Sendable {
    /// The `userInfo` key naming extra keys the object may have.
    public static let otherKeys = CodingUserInfoKey(rawValue: "darkroom.job-request.other-keys")!

    /// The request, its `line` nil.
    public var request: JobRequest

    public init(from decoder: any Decoder) throws {
        do {
            request = try LineRecord(from: decoder).request
        } catch let problem as LineRecord.Problem {
            throw SourceListError(file: "", line: nil, message: problem.message)
        }
    }
}
