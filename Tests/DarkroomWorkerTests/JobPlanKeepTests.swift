import DarkroomCodecs
import DarkroomQueue
import DarkroomStandardProcessors
import Testing

@testable import DarkroomWorker

@Suite("A job's keep list reaches the render")
struct JobPlanKeepTests {
    @Test("The queue's keep items are the codecs' (the queue does not link the codecs, so a test holds them equal)")
    func sameItems() {
        #expect(JobKeep.items == MetadataKeep.names.map(\.name))
    }

    @Test("Given a job keeping icc and exif, its plan's output keeps them; a job without keep keeps nothing")
    func planCarriesKeep() throws {
        var job = Job(batch: "b", source: "a.jpg", chain: "blur(1)")
        #expect(try JobPlan(job: job, processors: StandardProcessors.registry).request.output.keep.isEmpty)
        job.keep = ["exif", "icc"]
        #expect(try JobPlan(job: job, processors: StandardProcessors.registry).request.output.keep == [.exif, .icc])
    }
}
