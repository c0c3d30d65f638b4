import DarkroomQueue

/// The check that jobs requiring capabilities (`Job.requires`) have a live worker to run them:
/// a job no live worker can honour would wait in its lane until one joins, which is rarely what
/// the caller meant (a typo'd plugin, a fleet not yet upgraded), so `enqueue` refuses it unless
/// told to enqueue anyway.
///
/// With no live worker at all nothing is refused (a fleet that scales from zero starts its
/// workers when work arrives); the caller is told the requirements were not checked.
enum OfferCheck {
    /// Problems for the requirement sets no live worker offers (one per set, naming what is
    /// missing and how many jobs need it), and notes; no problems when `allowUnoffered`, or when
    /// no job requires anything.
    static func check(
        _ jobs: [Job], workers: () async throws -> [WorkerInfo], allowUnoffered: Bool
    ) async throws -> (problems: [EnqueueProblem], notes: [String]) {
        var sets: [[String]: Int] = [:]
        for job in jobs { if let requires = job.requires { sets[requires, default: 0] += 1 } }
        guard !sets.isEmpty else { return ([], []) }
        let live = try await workers()
        guard !live.isEmpty else {
            return ([], ["note: no live worker, so nothing checked that a worker offers what these jobs require (\(summary(sets)))"])
        }
        let offers = live.map { (name: $0.name, offers: $0.offers) }
        var problems: [EnqueueProblem] = []
        var notes: [String] = []
        for (requires, count) in sets.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            guard !offers.contains(where: { Capabilities.satisfies($0.offers, requires) }) else { continue }
            let missing = requires.filter { name in !offers.contains { $0.offers.contains(name) } }
            let what = missing.isEmpty ? "all of \(requires.joined(separator: ", ")) at once" : missing.joined(separator: ", ")
            let jobs = count == 1 ? "1 job requires" : "\(count) jobs require"
            if allowUnoffered {
                notes.append("note: \(jobs) \(requires.joined(separator: ", ")), which no live worker offers (\(what)); they wait until one joins")
            } else {
                problems.append(
                    EnqueueProblem(
                        .unoffered, location: "capabilities",
                        message:
                            "\(jobs) \(requires.joined(separator: ", ")), but no live worker offers \(what) (\(live.count) live); start a worker that does, or pass --allow-unoffered to enqueue them to wait for one"
                    ))
            }
        }
        return (problems, notes)
    }

    private static func summary(_ sets: [[String]: Int]) -> String {
        Set(sets.keys.flatMap { $0 }).sorted().joined(separator: ", ")
    }
}
