import DarkroomQueue
import DarkroomQueueContract
import Foundation
import Testing

/// The shared contract run against `RedisStreamsQueue` on a real `redis-server`, for every test
/// that does not wait on Redis's own time: delays, retries and heartbeat expiry follow the
/// driver's injected clock, which the harness moves by hand (`StreamsTestKit.manualClockFactory`),
/// so the suite runs in the parallel pass. The tests that need a lease to go stale, a stream id to
/// age or a heartbeat record to expire (`PX`, Redis's time, beside the sorted set's scores in the
/// driver's) are in `RedisStreamsQueueContractRealTimeTests`.
@Suite("RedisStreamsQueue meets the job queue contract")
struct RedisStreamsQueueContractTests {
    static let factory = StreamsTestKit.manualClockFactory

    @Test("Enqueueing an id the queue already knows is a no-op")
    func idempotentEnqueue() async throws { try await JobQueueContract.enqueueIsIdempotentOnID(Self.factory) }

    @Test("A job enqueued again into its batch stays counted there once, with its outcome")
    func reenqueueSameBatch() async throws { try await JobQueueContract.reenqueueIntoSameBatchReportsTheOutcome(Self.factory) }

    @Test("A job enqueued again into another batch is skipped and reported with the batch that has it")
    func reenqueueOtherBatch() async throws { try await JobQueueContract.reenqueueIntoAnotherBatchNamesTheBatchThatHasIt(Self.factory) }

    @Test("High jobs go before normal before low, first in first out within a priority")
    func priorities() async throws { try await JobQueueContract.priorityOrder(Self.factory) }

    @Test("Reserve never hands out more jobs than asked for")
    func backPressure() async throws { try await JobQueueContract.reserveRespectsBackPressure(Self.factory) }

    @Test("Acknowledging publishes exactly one terminal event, and repeating it publishes nothing")
    func ackOnce() async throws { try await JobQueueContract.acknowledgePublishesExactlyOnce(Self.factory) }

    @Test("A permanent failure is one terminal failed event without retry")
    func permanentFailure() async throws { try await JobQueueContract.acknowledgeFailureIsTerminal(Self.factory) }

    @Test("Retries stop at maxAttempts and the job is dead-lettered with its last error")
    func retriesExhausted() async throws { try await JobQueueContract.retriesExhaustedDeadLetterWithLastError(Self.factory) }

    @Test("A delayed job is not handed out before it is due")
    func delayedJob() async throws { try await JobQueueContract.delayedJobWaitsUntilDue(Self.factory) }

    @Test("A retried job waits for its delay and comes back as the next attempt with the error")
    func delayedRetry() async throws { try await JobQueueContract.delayedRetryWaitsForItsDelay(Self.factory) }

    @Test("Cancelling drops queued jobs with one cancelled event each and leaves running jobs alone")
    func cancel() async throws { try await JobQueueContract.cancelDropsQueuedJobsWithOneEventEach(Self.factory) }

    @Test("Every terminal event carries its job's redacted source and chain; a retrying failure neither")
    func provenance() async throws { try await JobQueueContract.terminalEventsSayWhatTheJobWas(Self.factory) }

    @Test("Events are read in order after a cursor and a waiting reader is woken by a publish")
    func events() async throws { try await JobQueueContract.eventsAreReadInOrderAfterACursor(Self.factory) }

    /// Time passes for real here, on Redis's clock too (leases go stale), so it takes fewer steps
    /// than the memory run (about 8% of steps sleep) and a short visibility timeout: nothing it
    /// checks depends on how long a step takes (a lease that goes stale early under load is one
    /// more interleaving), so it needs neither the contract's usual margins nor the serial pass.
    @Test("Every job ends with exactly one terminal event under a random interleaving", arguments: [1, 7, 42] as [UInt64])
    func randomInterleaving(seed: UInt64) async throws {
        try await JobQueueContract.everyJobEndsOnceUnderRandomInterleaving(Self.interleavingFactory, seed: seed, steps: 240)
    }

    static let interleavingFactory = StreamsTestKit.realTimeFactory(visibilityTimeout: .milliseconds(100))

    @Test("Jobs that require capabilities go only to consumers that offer them, in priority order")
    func capabilities() async throws { try await JobQueueContract.consumersGetOnlyWhatTheyOffer(Self.factory) }

    @Test("A job's requirements survive delays, retries, releases and dead letters")
    func capabilitiesSurviveRequeues() async throws { try await JobQueueContract.requirementsSurviveEveryRequeue(Self.factory) }

    @Test("A job handed back with an added requirement goes only to a consumer offering it, as the same attempt")
    func releaseAddsRequirements() async throws { try await JobQueueContract.releaseAddsRequirements(Self.factory) }

    @Test("A released job comes back as the same attempt without an event")
    func release() async throws { try await JobQueueContract.releaseHandsBackWithoutUsingAnAttempt(Self.factory) }

    @Test("A job released with a delay waits for it")
    func releaseDelay() async throws { try await JobQueueContract.releaseWithDelayWaits(Self.factory) }

    @Test("Batch progress counts new jobs and every kind of terminal outcome")
    func batchProgress() async throws { try await JobQueueContract.batchProgressCountsOutcomes(Self.factory) }

    @Test("A batch's times span its first enqueue to its latest job's end")
    func batchTimes() async throws { try await JobQueueContract.batchTimesSpanFirstEnqueueToLatestEnd(Self.factory) }

    @Test("Dead letters can be retried as first attempts, and purged")
    func deadLetterMaintenance() async throws { try await JobQueueContract.deadLettersCanBeRetriedAndPurged(Self.factory) }

    @Test("Dead letters page by the last id of each page")
    func deadLetterPages() async throws { try await JobQueueContract.deadLettersPageByID(Self.factory) }

    @Test("A group commit of 600 jobs across priorities finishes each with its own event, in order")
    func groupCommitMany() async throws { try await JobQueueContract.groupCommitOfManyJobsAcrossPriorities(Self.factory) }

    @Test("One call publishes events, acknowledges and reserves the next jobs, in that order")
    func acknowledgeAndReserve() async throws { try await JobQueueContract.acknowledgeAndReserveInOneCall(Self.factory) }

    @Test("The combined call refuses a terminal event among the published ones and finishes nothing")
    func acknowledgeAndReserveRefusesTerminal() async throws {
        try await JobQueueContract.acknowledgeAndReserveRefusesTerminalEvents(Self.factory)
    }

    @Test("Heartbeats carry the processors' schemas, and a worker without schemas is listed with its processors alone")
    func workerSchemas() async throws { try await JobQueueContract.workerRegistryCarriesSchemas(Self.factory) }
}
