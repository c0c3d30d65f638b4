import Foundation

/// `release(_:after:requiring:)` is in MemoryQueue.swift, beside `release`: it uses the actor's
/// private state.
extension MemoryQueue: RequirementAmendingQueue {}

extension MemoryQueueState {
    /// `release` with the job's record rewritten to require `added` too: a fresh entry in the
    /// lane of its new requirement set (Redis: the delayed set, promoted into that lane's stream).
    mutating func release(_ delivery: JobDelivery, after delay: Duration, requiring added: [String], now: Timestamp) -> Bool {
        guard let sequence = Self.sequence(of: delivery.tag), let held = pending[sequence], held.consumer == delivery.consumer,
            case .job(let job) = held.entry.decoded, let payload = try? job.requiring(added).jsonData()
        else { return false }
        pending[sequence] = nil
        let due = delay > .zero ? now.adding(delay) : nil
        place(makeEntry(payload: payload, priority: held.entry.priority), due: due, now: now)
        return true
    }
}
