import DarkroomQueue
import Foundation

/// Job and event records as a queue reads them from a stream: decoding never throws, and a job
/// that decodes encodes to a record that decodes to the same job.
enum JobRecordFuzz {
    static let target = FuzzTarget(
        name: "job",
        summary: "job and event JSON records: decode never throws; a decoded job round-trips"
    ) { bytes in
        let data = Data(bytes)
        if case .job(let job) = Job.decode(data) {
            guard let encoded = try? job.jsonData() else {
                FuzzFailure.stop("job", "a decoded job does not encode: \(job)")
            }
            guard case .job(let again) = Job.decode(encoded), again == job else {
                FuzzFailure.stop("job", "a decoded job does not round-trip: \(String(decoding: encoded, as: UTF8.self))")
            }
        }
        _ = JobEvent.decode(data)
    }
}
