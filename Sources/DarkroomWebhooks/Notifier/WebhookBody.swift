import DarkroomQueue

/// The JSON a delivery POSTs:
/// `{"delivery":ID,"event":<the event record>,"metadata":<object>,"type":"job.succeeded"}`, where
/// the event record is exactly the event stream's (`docs/queue.md`), so a receiver reads the same
/// fields `darkroom events --json` prints, and `metadata` (present when the job has metadata) is
/// the job's own JSON object as an object, not the record's text of it, so an application reads
/// its own fields without parsing twice.
enum WebhookBody {
    /// The `Darkroom-Event` name of a terminal job event, or nil for any other event.
    static func eventName(_ event: JobEvent) -> String? {
        guard event.isTerminal, event.type.isJobEvent else { return nil }
        switch event.type {
        case .succeeded: return "job.succeeded"
        case .failed: return "job.failed"
        case .dead: return "job.dead"
        case .cancelled: return "job.cancelled"
        case .batchEnqueued, .started, .workerOnline, .workerOffline: return nil
        }
    }

    /// `metadata` is the event's `metadata`: canonical JSON object text, checked when its job was
    /// enqueued (`JobMetadata`), so it is spliced in as it is.
    static func json(delivery: String, type: String, record: [UInt8], metadata: String? = nil) -> String {
        var out: [UInt8] = []
        JobJSONWriter.literal(#"{"delivery":"#, into: &out)
        JobJSONWriter.string(delivery, into: &out)
        JobJSONWriter.literal(#","event":"#, into: &out)
        out.append(contentsOf: record)
        if let metadata, JobMetadata.problem(metadata) == nil {
            JobJSONWriter.literal(#","metadata":"#, into: &out)
            out.append(contentsOf: Array(metadata.utf8))
        }
        JobJSONWriter.literal(#","type":"#, into: &out)
        JobJSONWriter.string(type, into: &out)
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }
}
