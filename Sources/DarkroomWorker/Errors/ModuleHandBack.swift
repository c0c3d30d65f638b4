import DarkroomCodecs
import DarkroomQueue
import Logging

extension Worker {
    /// Hands back a job whose source is in a format only a coder module decodes
    /// (`image.needs-module`: HEIC without the HEIC module), requiring `decode:heic`, when some live
    /// worker offers it: that worker then runs it, as the same attempt and without an event. Returns
    /// false — the job then fails with the refusal — when no live worker offers it, when the job
    /// already required it, or when the queue cannot amend requirements.
    func handBack(_ delivery: JobDelivery, refusal error: JobError, logger: Logger) async -> Bool {
        guard error.code == CodecError.Code.needsModule.rawValue else { return false }
        let capability = Capabilities.decode(ImageFormat.heic.rawValue)
        guard !(delivery.job.requires ?? []).contains(capability), let amending = queue as? any RequirementAmendingQueue else { return false }
        let queue = self.queue
        guard let workers = await queueCall("liveWorkers", logger: logger, { try await queue.liveWorkers() }),
            workers.contains(where: { $0.offers.contains(capability) })
        else { return false }
        logger.warning(
            "job's source needs a coder module this worker lacks; handing it back for a worker that offers it",
            metadata: ["error": "\(error)", "requires": "\(capability)", "retry-in": "\(configuration.releaseDelay)"])
        let delay = configuration.releaseDelay
        _ = await queueCall("release", logger: logger) { try await amending.release(delivery, after: delay, requiring: [capability]) }
        return true
    }
}
