import DarkroomAPIKeys
import DarkroomClient
import DarkroomOutput
import DarkroomQueue
import DarkroomSystem
import Foundation
import Hummingbird

/// `GET /v1/jobs/{id}/output`: a succeeded job's output bytes, with `Content-Type` from its
/// format and a strong `ETag` (the SHA-256 of the bytes served); `If-None-Match` with that tag
/// answers 304 without a body. An output in object storage (`s3://…`) is not served here: the
/// answer names its URL and ETag (the job view has them too).
struct OutputRoute: Sendable {
    let client: FleetClient
    let files: OutputFiles
    /// The file is read off the cooperative threads.
    let pool: BlockingWorkPool
    let access: APIAccess

    /// Needs `read`, and a job of the key's own unless it has `admin`.
    func output(_ id: JobID, ifNoneMatch: String?, key: APIKey) async throws -> Response {
        try key.permits(scope: .read)
        try await access.requireAccess(key, job: id.rawValue, unknown: JobRoutes.unknownJob(id))
        let status = try await client.lookup(id)
        if status == .notFound { throw JobRoutes.unknownJob(id) }
        guard case .ended(let event) = status, event.type == .succeeded else {
            throw APIError(.noOutput, "the job has not succeeded (yet), so it has no output")
        }
        // Every worker's `succeeded` carries a result: without one, only the job's finished
        // record answered (docs/queue.md, "What a finished job keeps").
        guard let result = event.result else {
            throw APIError(
                .noOutput,
                "the job succeeded, but its event has been trimmed from the event stream and only a summary is kept; its output is named in the coordinator's event log"
            )
        }
        guard let path = result.output else { throw APIError(.noOutput, "the job's result was kept in no file") }
        if Capabilities.isObjectStorageDestination(path) {
            // The API server holds no object-storage credentials: the bucket serves it.
            throw APIError(
                .noOutput,
                "the job's output is in object storage at \(path)\(result.etag.map { " (ETag \($0))" } ?? ""); read it from the bucket")
        }
        let files = files
        let contents = try await pool.run { try files.read(path) }
        // The sink's digest of what the job wrote: other bytes under that name are another
        // job's (a later write to the same name), not this job's result.
        if let written = result.sha256, written != contents.sha256 {
            throw APIError(.outputGone, "the output file was replaced since the job wrote it; enqueue the job again")
        }
        let tag = "\"\(contents.sha256)\""
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "private, max-age=0, must-revalidate"]
        if let ifNoneMatch, Self.matches(ifNoneMatch, tag: tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = Self.contentType(of: result.format)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: contents.bytes)))
    }

    /// Whether an `If-None-Match` list names `tag` (weak comparison: `W/` is ignored) or is `*`.
    static func matches(_ header: String, tag: String) -> Bool {
        header.split(separator: ",").contains { item in
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || (trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed) == tag
        }
    }

    /// The media type of an output format name (the one table `OutputMediaType` holds).
    static func contentType(of format: String) -> String {
        OutputMediaType.of(format: format)
    }
}
