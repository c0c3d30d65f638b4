import DarkroomFleetStatus
import DarkroomQueue

/// The projections reader.
extension Coordinator {
    /// Folds page after page into the store's projections until shutdown; throws `LeaseLost` when
    /// another coordinator took over.
    func followIntoProjections(_ store: any CoordinatorStore, pages: SharedPages) async throws {
        var checkpoint = try await store.coordinatorRegistration()?.checkpoint
        progress.withLock { $0.projectionCheckpoint = checkpoint }
        try await repeatUntilStopped("projections") {
            let page = try await pages.page(after: checkpoint ?? .start, for: "projections")
            guard !page.isEmpty else {
                metrics?.recordCaughtUp()
                return
            }
            _ = try await gap(after: checkpoint, in: page, reader: "projections")
            switch try await store.applyProjections(page, after: checkpoint, owner: configuration.name) {
            case .applied:
                metrics?.record(page)
                checkpoint = page.last?.cursor
                progress.withLock {
                    $0.projectionCheckpoint = checkpoint
                    $0.eventsProjected += page.count
                    $0.projectionTrimPoint.record(page)
                }
            case .leaseLost:
                throw LeaseLost()
            case .checkpointMoved(let stored):
                // Only a coordinator holding the lease moves it, so this one held it late: follow.
                logger.warning(
                    "the projections' checkpoint moved under this coordinator; resuming from it",
                    metadata: ["expected": "\(checkpoint?.rawValue ?? "none")", "stored": "\(stored?.rawValue ?? "none")"])
                checkpoint = stored
            }
        }
    }
}
