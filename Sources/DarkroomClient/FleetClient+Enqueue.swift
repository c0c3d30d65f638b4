import DarkroomQueue

extension FleetClient {
    /// Checks and canonicalises `requests` without sending anything: absolute paths, canonical
    /// chains, checked formats and ids, and the capabilities each job requires. Live workers are
    /// asked for their processors only when a chain names one this client lacks or a job
    /// requires a capability or names a file; a requirement no live worker offers (`OfferCheck`),
    /// and a file or output directory no live worker would accept or a missing source
    /// (`PathCheck`), are refused unless `defaults.allowUnoffered`. Throws `EnqueueRefusal` when any request is bad (and
    /// the queue's error when the workers could not be asked).
    ///
    /// `listName` names the job list in problem locations (`list.txt:12`).
    public func prepare(
        _ requests: [JobRequest], defaults: EnqueueDefaults, listName: String? = nil,
        now: Timestamp = .now()
    ) async throws -> PreparedJobs {
        let queue = self.queue
        var validator = ChainValidator(registry: processors) { try await queue.liveWorkers() }
        let (formats, formatNotes) = try await enqueueFormats(for: requests, defaults: defaults)
        switch try await EnqueuePlanner.plan(
            requests, defaults: defaults, validator: &validator,
            listName: listName, formats: formats, now: now)
        {
        case .jobs(let jobs):
            // The live workers are asked once, and only when a job needs a capability or names a
            // file or an output directory (a URL source into the cache alone needs neither).
            let asks = jobs.contains { $0.requires != nil || $0.output != nil || PathCheck.localPath($0.source) != nil }
            let workers = asks ? try await queue.liveWorkers() : []
            var (problems, offerNotes) = try await OfferCheck.check(
                jobs, workers: { workers }, allowUnoffered: defaults.allowUnoffered)
            problems += await PathCheck.check(
                jobs, workers: workers, allowUnoffered: defaults.allowUnoffered,
                limit: EnqueuePlanner.maxProblems - problems.count, pool: fileLookups)
            guard problems.isEmpty else { throw EnqueueRefusal(problems: problems) }
            return PreparedJobs(jobs: jobs, notes: validator.notes + formatNotes + offerNotes)
        case .problems(let problems):
            throw EnqueueRefusal(problems: problems)
        }
    }

    /// The formats jobs may ask for: this client's `formats`, and — only when a job asks for a
    /// format they lack, so the common case needs no round trip — those live workers advertise,
    /// with a note for each format accepted that way.
    private func enqueueFormats(for requests: [JobRequest], defaults: EnqueueDefaults) async throws -> (EnqueueFormats, [String]) {
        var asked = Set(requests.compactMap(\.format).map { $0.lowercased() })
        if let format = defaults.format { asked.insert(format.lowercased()) }
        let missing = asked.filter { formats.canonicalName($0) == nil }
        guard !missing.isEmpty else { return (EnqueueFormats(local: formats), []) }
        let workers = try await queue.liveWorkers().sorted { $0.name < $1.name }
        let offered = Set(workers.flatMap(\.formats).map { $0.lowercased() })
        let notes = missing.intersection(offered).sorted().map { format in
            let who = workers.filter { $0.formats.contains { $0.lowercased() == format } }.prefix(3).map(\.name).joined(separator: ", ")
            return "note: format '\(format)' is not written by this darkroom; accepted because live workers write it (\(who))"
        }
        return (EnqueueFormats(local: formats, offeredByWorkers: offered), notes)
    }

    /// Sends prepared jobs; returns how many were new (a job whose id the queue already knows is
    /// skipped). `progress` hears how many have been sent as a long call goes on.
    public func enqueue(_ prepared: PreparedJobs, progress: (@Sendable (Int) -> Void)? = nil) async throws -> Int {
        try await enqueueReport(prepared, progress: progress).added
    }

    /// Sends prepared jobs; says how many were new and where the skipped ones are (a job the queue
    /// already knows in its own batch is counted there already, so waiting for the batch reports
    /// its outcome; one known in another batch is counted only there).
    public func enqueueReport(_ prepared: PreparedJobs, progress: (@Sendable (Int) -> Void)? = nil) async throws -> EnqueueReport {
        // One driver call, so one `batchEnqueued` event for the whole lot; the driver reports
        // progress between its pipelined round trips.
        try await queue.enqueueReport(prepared.jobs, progress: progress)
    }

    /// `prepare`, then `enqueue`: the jobs are sent only when every request is good.
    public func enqueue(
        _ requests: [JobRequest], defaults: EnqueueDefaults, listName: String? = nil,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws -> EnqueueReceipt {
        let prepared = try await prepare(requests, defaults: defaults, listName: listName)
        let report = try await enqueueReport(prepared, progress: progress)
        var receipt = EnqueueReceipt(jobs: prepared.jobs, added: report.added, notes: prepared.notes)
        receipt.knownElsewhere = report.knownElsewhere
        return receipt
    }
}
