/// The fleet's live workers: each worker registers with heartbeats and leaves on shutdown, and
/// tools list who is live (`darkroom enqueue` warns when no worker is).
public protocol WorkerRegistry: Sendable {
    /// Registers or refreshes a worker; it counts as live until `ttl` passes without another call.
    func heartbeat(_ worker: WorkerInfo, ttl: Duration) async throws

    /// Removes a worker from the live set at once (graceful shutdown).
    func removeWorker(named name: String) async throws

    /// The workers whose last heartbeat has not expired, by name.
    func liveWorkers() async throws -> [WorkerInfo]
}
