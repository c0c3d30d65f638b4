import DarkroomQueue
import DarkroomSystem

/// The notifier's two loops: reading events into the outbox, and sending from it.
extension WebhookNotifier {
    ///
    /// The lease is renewed every third of its time to live, not on every page, and the checkpoint
    /// is read from Redis only when this notifier (re)takes the lease: while it holds the lease
    /// nobody else moves it. After a short page (caught up) the next read waits `gatherWindow`, so
    /// at low rates a page, its look-ups and its checkpoint write serve every event of that time.
    func ingestLoop() async {
        var failures = 0
        var renewed: ContinuousClock.Instant?
        var cursor: EventCursor?
        while !isStopping {
            do {
                if renewed.map({ ContinuousClock.now - $0 >= configuration.leaseTTL / 3 }) ?? true {
                    guard try await holdLease() else {
                        (renewed, cursor) = (nil, nil)
                        try await Task.sleep(for: configuration.leaseTTL / 3)
                        continue
                    }
                    renewed = .now
                }
                let after: EventCursor
                if let cursor { after = cursor } else { after = try await storedCursor() }
                let (last, count) = try await ingestPage(after: after)
                cursor = last ?? after
                failures = 0
                if count > 0, count < Self.pageSize { try await Task.sleep(for: configuration.gatherWindow) }
            } catch {
                // Read the checkpoint again: the page may or may not have moved it.
                cursor = nil
                failures += 1
                logger.warning("webhook notifier: reading events failed; retrying", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .milliseconds(min(5000, 100 << min(failures, 6))))
            }
        }
    }

    /// The most events one page reads.
    static let pageSize = 500

    /// The checkpoint as stored (`.start` before the first page).
    func storedCursor() async throws -> EventCursor {
        try await client.command(["GET", keys.cursor]).string.map(EventCursor.init(rawValue:)) ?? .start
    }

    /// Reads one page of events after `cursor`, adds a delivery for each subscribed terminal job
    /// event and moves the checkpoint; returns the page's last cursor (nil when it was empty) and
    /// its size.
    func ingestPage(after cursor: EventCursor) async throws -> (last: EventCursor?, count: Int) {
        let page = try await queue.readEvents(after: cursor, limit: Self.pageSize, wait: configuration.pollWait)
        guard let last = page.last else { return (nil, 0) }
        let terminal = page.filter { WebhookBody.eventName($0.event) != nil && $0.event.job != nil }
        let endpoints = try await subscriptions.endpoints(for: terminal.compactMap(\.event.job))
        // The submitting keys of the jobs that notify, in one round trip, for the per-key cap.
        let notifying = zip(terminal, endpoints).compactMap { $1 == nil ? nil : $0.event.job?.rawValue }
        let jobOwners = Dictionary(
            zip(notifying, try await owners?.owners(ofJobs: notifying) ?? []).compactMap { job, owner in owner.map { (job, $0) } },
            uniquingKeysWith: { first, _ in first })
        var byJob: [String: [WebhookDelivery]] = [:]
        var jobs: [String] = []
        for (envelope, endpoint) in zip(terminal, endpoints) {
            guard let endpoint, let job = envelope.event.job, let type = WebhookBody.eventName(envelope.event) else { continue }
            let body = WebhookBody.json(
                delivery: envelope.event.id, type: type, record: envelope.canonicalRecord, metadata: envelope.event.metadata)
            if byJob[job.rawValue] == nil { jobs.append(job.rawValue) }
            byJob[job.rawValue, default: []].append(
                WebhookDelivery(
                    id: envelope.event.id, endpoint: endpoint, event: type, orderKey: "job:" + job.rawValue,
                    createdAt: envelope.event.at, body: body, owner: jobOwners[job.rawValue]))
        }
        try await add(jobs.compactMap { byJob[$0] })
        // One wake for the page, not one per delivery: the sender claims as many as it can take.
        if !jobs.isEmpty { wakeup.wake() }
        // Batch ends, once per batch per page: its counts now, stamped with its latest event here.
        var batchEndedAt: [String: Timestamp] = [:]
        var notifiedBatch = false
        for envelope in terminal { if let batch = envelope.event.batch { batchEndedAt[batch] = envelope.event.at } }
        for (batch, time) in batchEndedAt.sorted(by: { $0.key < $1.key }) {
            guard let endpoint = try await subscriptions.endpoint(forBatch: batch),
                let progress = try await queue.batchProgress(batch)
            else { continue }
            let owner = try await owners?.owner(ofBatch: batch)
            try await batchEnds.notify(batch: batch, endpoint: endpoint, owner: owner, progress: progress, at: time)
            notifiedBatch = true
        }
        if notifiedBatch, jobs.isEmpty { wakeup.wake() }
        _ = try await client.command(["SET", keys.cursor, last.cursor.rawValue]).throwingOnError()
        return (last.cursor, page.count)
    }

    /// Adds each job's deliveries in the order of its events, several jobs at once: one at a time,
    /// a page of hundreds took as many round trips in a row, each waiting for a connection the
    /// sender shares, and the checkpoint fell seconds behind at 1,000 jobs a second
    /// (docs/benchmarks.md, "HTTP API").
    private func add(_ jobs: [[WebhookDelivery]]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var running = 0
            for deliveries in jobs {
                if running == Self.jobsAddedAtOnce {
                    _ = try await group.next()
                    running -= 1
                }
                group.addTask {
                    for delivery in deliveries { try await self.outbox.add(delivery) }
                }
                running += 1
            }
            try await group.waitForAll()
        }
    }

    /// Jobs whose deliveries `add` writes at once: the coordinator's Redis client has 4 connections.
    static let jobsAddedAtOnce = 4

    /// Keeps up to `concurrency` deliveries in flight, claiming more as each one ends, so a slow
    /// receiver holds one slot for at most its timeout and never the others. A send the receiver
    /// accepted claims the next due delivery for its slot in the same script call as its finish.
    func sendLoop() async {
        // Each task ends with what it claimed next (a send), or nil (the idle timer).
        await withTaskGroup(of: [WebhookDelivery]?.self) { group in
            var sending = 0
            var timerPending = false
            func start(_ due: [WebhookDelivery]) {
                for delivery in due {
                    group.addTask { await self.send(delivery) }
                }
                sending += due.count
            }
            while !isStopping {
                if isLeading, sending < configuration.concurrency {
                    do {
                        let due = try await outbox.claimDue(max: configuration.concurrency - sending)
                        start(due)
                        if !due.isEmpty { continue }
                    } catch {
                        logger.warning("webhook sender: claiming deliveries failed; retrying", metadata: ["error": "\(error)"])
                        try? await Task.sleep(for: .seconds(1))
                    }
                }
                // Wait for a send to end, a delivery to be added or the idle poll, whichever comes first.
                if !timerPending {
                    timerPending = true
                    group.addTask {
                        await self.wakeup.sleep(for: self.configuration.idlePoll)
                        return nil
                    }
                }
                if let ended = await group.next() {
                    if let next = ended {
                        sending -= 1
                        start(next)
                    } else {
                        timerPending = false
                    }
                }
            }
        }
    }

    /// Sends one delivery; when the receiver accepts it and this notifier still leads, claims the
    /// next due delivery with the finish.
    private func send(_ delivery: WebhookDelivery) async -> [WebhookDelivery] {
        do {
            return try await sender.send(delivery, claimNext: isLeading && !isStopping ? 1 : 0)
        } catch {
            // Left claimed: it is due again when the claim lapses.
            logger.warning("webhook delivery could not be recorded", metadata: ["delivery": "\(delivery.id)", "error": "\(error)"])
            return []
        }
    }
}
