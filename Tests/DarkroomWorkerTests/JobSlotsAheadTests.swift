import Testing

@testable import DarkroomWorker

/// The bound on jobs held that have not started, and how a run of cache hits widens it.
@Suite("Worker slots: jobs held ahead of their work")
struct JobSlotsAheadTests {
    @Test("At most `ahead` unstarted jobs are held while jobs compute")
    func computingJobsAreBounded() {
        let slots = JobSlots(limit: 16, ahead: 4)
        #expect(slots.claim() == 4)
        #expect(slots.free == 0)
        slots.startedWork(fromCache: false)
        #expect(slots.free == 1)  // one started computing: one more may wait
    }

    @Test("Each cache hit in a row lets one more unstarted job be held, up to the limit; a computation ends the streak")
    func cacheHitsWidenTheBound() {
        let slots = JobSlots(limit: 16, ahead: 4)
        #expect(slots.claim() == 4)
        for _ in 0..<4 { slots.startedWork(fromCache: true) }
        for _ in 0..<4 { slots.settle() }
        #expect(slots.free == 8)  // ahead 4 + 4 hits in a row, none waiting
        #expect(slots.claim() == 8)
        for _ in 0..<8 { slots.startedWork(fromCache: true) }
        for _ in 0..<8 { slots.settle() }
        #expect(slots.free == 16)  // the streak is capped by the running limit
        #expect(slots.claim() == 16)
        slots.startedWork(fromCache: false)
        #expect(slots.free == 0)  // 15 still unstarted, over the bound of 4 again
        for _ in 0..<15 { slots.startedWork() }  // left without starting: the streak stays ended
        #expect(slots.waiting == 0)
        #expect(slots.free == 0)  // 16 running: no slot until they settle
    }
}
