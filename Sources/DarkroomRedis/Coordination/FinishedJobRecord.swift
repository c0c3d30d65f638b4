import DarkroomQueue

/// What a finished job keeps in Redis for the idempotency window: a short string in its marker
/// `{p}:job:<id>`, written by the coordinator's fold (`CoordinatorScripts.apply`) over the value
/// the enqueue script put there (the batch).
///
/// Layout: byte 0x01 (no batch name starts with a control character, so the enqueue script tells
/// a record from a bare batch), the type (`s` succeeded, `f` failed, `d` dead, `c` cancelled)
/// and the attempt, then `|`-separated: the detail (for `succeeded` its output count, for
/// `failed` and `dead` the error code, for `cancelled` nothing), the event's time (`at`) as
/// milliseconds after its stream id's time (a few digits: the writer's clock against Redis's,
/// plus the time to append), the terminal event's stream id,
/// how many times a worker started the job, the milliseconds from its latest start to its end
/// ('' when the coordinator did not see the start), its place in its batch's job index ('' when
/// not indexed), and the batch (last, so it may hold `|`).
/// `\u{1}s1|1|-2|1764329000123-0|1|245|17|photos` is 41 bytes: a value of at most 44 bytes is stored
/// inside its key's object, one allocation.
///
/// The record says what a look-up needs most; the full event (source, chain, outputs with their
/// SHA-256, the error's message) is read from the event stream by the record's stream id while
/// the stream holds it, and after that only the event log on the volume has it.
struct FinishedJobRecord: Sendable, Hashable {
    var type: JobEventType
    var attempt: Int
    /// Outputs of a `succeeded` job (renditions count one each); nil for other types.
    var outputs: Int?
    /// The error code of a `failed` or `dead` job; nil for other types.
    var errorCode: String?
    var cursor: EventCursor
    /// The terminal event's own time.
    var endedAt: Timestamp
    var starts: Int
    var durationMilliseconds: Int64?
    /// The job's place in its batch's job index, which names its bucket (`BatchJobBuckets`).
    var place: Int64?
    var batch: String

    private static let lead: UInt8 = 0x01
    private static let letters: [(JobEventType, UInt8)] = [
        (.succeeded, UInt8(ascii: "s")), (.failed, UInt8(ascii: "f")), (.dead, UInt8(ascii: "d")), (.cancelled, UInt8(ascii: "c")),
    ]

    /// The part of the record the fold cannot know (type, attempt, detail, time), as the projection
    /// script's argument for `event` (at stream id `cursor`), the last of its job in a page; nil
    /// when `event` does not end its job.
    static func head(of event: JobEvent, at cursor: EventCursor) -> [UInt8]? {
        guard event.type.isJobEvent, event.isTerminal, let letter = letters.first(where: { $0.0 == event.type })?.1 else { return nil }
        var detail = ""
        switch event.type {
        case .succeeded: detail = String(event.result.map { $0.renditions?.count ?? ($0.output == nil ? 0 : 1) } ?? 0)
        // A code is a plugin's choice: a `|` in it would move the fields after it.
        case .failed, .dead: detail = String((event.error?.code ?? "").map { $0 == "|" ? "_" : $0 })
        default: break
        }
        let appended = StreamID.milliseconds(cursor.rawValue) ?? event.at.millisecondsSince1970
        return [lead, letter] + Array("\(event.attempt ?? 0)|\(detail)|\(event.at.millisecondsSince1970 - appended)".utf8)
    }

    /// The record in a marker's value, or nil for a marker that holds only its batch (a job not
    /// finished, or finished before records were kept) or anything unreadable.
    init?(marker value: [UInt8]) {
        guard value.count > 2, value[0] == Self.lead, let type = Self.letters.first(where: { $0.1 == value[1] })?.0 else { return nil }
        let text = String(decoding: value[2...], as: UTF8.self)
        let fields = text.split(separator: "|", maxSplits: 7, omittingEmptySubsequences: false)
        guard fields.count == 8, let attempt = Int(fields[0]), let delta = Int64(fields[2]), StreamID.isValid(fields[3]),
            let appended = StreamID.milliseconds(fields[3]), let starts = Int(fields[4])
        else { return nil }
        self.type = type
        self.attempt = attempt
        switch type {
        case .succeeded: outputs = Int(fields[1])
        case .failed, .dead: errorCode = String(fields[1])
        default: break
        }
        cursor = EventCursor(rawValue: String(fields[3]))
        endedAt = Timestamp(millisecondsSince1970: appended + delta)
        self.starts = starts
        durationMilliseconds = Int64(fields[5])
        place = Int64(fields[6])
        batch = String(fields[7])
    }

    /// The terminal event as far as the record tells it, for a look-up after the stream trimmed
    /// the event: type, job, batch, attempt, time (`at`), a `failed` without retry, and the error's code
    /// with an empty message. No worker, result, source, chain or metadata; its id is the stream
    /// id (the event's own id is not kept).
    func event(of job: JobID) -> JobEvent {
        var event = JobEvent.cancelled(job: job, batch: batch, attempt: attempt, at: endedAt, id: cursor.rawValue)
        event.type = type
        if type == .failed { event.willRetry = false }
        if let errorCode, type == .failed || type == .dead { event.error = JobError(code: errorCode, message: "") }
        return event
    }
}
