import DarkroomFleetStatus
import DarkroomQueue

/// Housekeeping, once per `housekeepingInterval` while this coordinator leads.
extension Coordinator {
    func keepHouse(_ store: any CoordinatorStore) async throws {
        var renewed = ContinuousClock.now
        try await repeatUntilStopped("housekeeping") {
            if ContinuousClock.now - renewed >= configuration.leaseTTL / 3 {
                let holder = try await store.acquireCoordinatorLease(owner: configuration.name, ttl: configuration.leaseTTL)
                guard holder == configuration.name else { throw LeaseLost() }
                renewed = .now
            }
            let offline = try await store.markLapsedWorkersOffline(owner: configuration.name, grace: configuration.workerOfflineGrace)
            for name in offline {
                logger.warning("a worker's heartbeat lapsed; published workerOffline", metadata: ["worker": "\(name)"])
            }
            let promoted = try await store.promoteDueDelayedJobs(limit: 1000)
            progress.withLock {
                $0.workersMarkedOffline += offline.count
                $0.delayedJobsPromoted += promoted
            }
            if let trimPoint = await flooredTrimPoint() { try await store.trimEvents(before: trimPoint) }
            try? await Task.sleep(for: configuration.housekeepingInterval)
        }
    }

    /// `trimPoint()`, and never past `configuration.trimFloor`'s reader.
    func flooredTrimPoint() async -> EventCursor? {
        guard let point = trimPoint() else { return nil }
        guard let floor = await configuration.trimFloor?(), let floorPosition = StreamPosition(floor),
            let pointPosition = StreamPosition(point)
        else { return point }
        return floorPosition < pointPosition ? floor : point
    }

    /// Where the stream may be trimmed: behind every reader, keeping `eventRetention` read events.
    func trimPoint() -> EventCursor? {
        progress.withLock { progress in
            var points = [progress.projectionTrimPoint.cursor]
            if configuration.eventLog != nil { points.append(progress.logTrimPoint.cursor) }
            let positions = points.map { $0.flatMap { cursor in StreamPosition(cursor).map { ($0, cursor) } } }
            guard positions.allSatisfy({ $0 != nil }) else { return nil }
            return positions.compactMap { $0 }.min { $0.0 < $1.0 }?.1
        }
    }
}
