/// Who wrote an output: the job and its batch. A sink records it with the output, and gives it
/// back when another store finds the name taken (`OutputError.owner`), so the worker can tell a
/// clash within one batch (two jobs of one request asking for one name: a failure) from a file
/// an earlier batch left (which the job may replace or step around).
///
/// Plain strings, not the queue's types: a sink stores outputs for any program.
public struct OutputOwner: Sendable, Hashable {
    /// The job id.
    public var job: String
    /// The job's batch.
    public var batch: String

    public init(job: String, batch: String) {
        self.job = job
        self.batch = batch
    }
}
