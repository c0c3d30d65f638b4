import Synchronization

/// Runs one piece of work per key at a time and gives every concurrent caller its outcome
/// (Nuke's task coalescing): twenty requests for one result compute it once.
///
/// The work runs in an unstructured task owned by the coalescer, so a caller that is cancelled
/// stops waiting without cancelling the work for the others.
final class WorkCoalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let inFlight = Mutex<[Key: Task<Value, any Error>]>([:])

    /// Joins the work in flight for `key`, or starts `work`.
    func run(key: Key, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task: Task<Value, any Error> = inFlight.withLock { tasks in
            if let running = tasks[key] { return running }
            let task = Task { [weak self] in
                defer { self?.finish(key) }
                return try await work()
            }
            tasks[key] = task
            return task
        }
        return try await task.value
    }

    private func finish(_ key: Key) {
        _ = inFlight.withLock { $0.removeValue(forKey: key) }
    }

    /// How many keys are being worked on now.
    var count: Int { inFlight.withLock { $0.count } }
}
