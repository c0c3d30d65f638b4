/// The ready jobs of a `MemoryQueue`, one first-in-first-out lane per priority and requirement
/// set, as the Redis driver keeps one stream per lane: a consumer reads the lanes it can honour,
/// in priority order, and the other lanes keep their jobs for a consumer that can.
struct ReadyLanes<Element> {
    /// A lane: a priority (by `JobPriority.rank`) and the capabilities its jobs require (empty:
    /// none).
    struct Lane: Hashable, Comparable {
        var rank: Int
        var requires: [String]

        /// High before normal before low; within a priority, the lane that requires nothing first,
        /// then the others by their requirement lists (a fixed order, so reads are deterministic).
        static func < (left: Lane, right: Lane) -> Bool {
            if left.rank != right.rank { return left.rank < right.rank }
            if left.requires.isEmpty != right.requires.isEmpty { return left.requires.isEmpty }
            return left.requires.lexicographicallyPrecedes(right.requires)
        }
    }

    private var lanes: [Lane: FIFO<Element>] = [:]

    mutating func append(_ element: Element, rank: Int, requires: [String]?) {
        lanes[Lane(rank: rank, requires: requires ?? []), default: FIFO()].append(element)
    }

    /// Takes the first element of the first lane, in lane order, whose requirements `offering`
    /// satisfies; nil when those lanes are empty.
    mutating func popFirst(offering: Set<String>) -> Element? {
        for lane in lanes.keys.sorted() where lane.requires.allSatisfy(offering.contains) {
            guard let element = lanes[lane]?.popFirst() else { continue }
            if lanes[lane]?.count == 0 { lanes[lane] = nil }
            return element
        }
        return nil
    }

    /// Removes and returns every element matching `predicate`, from every lane.
    mutating func removeAll(where predicate: (Element) -> Bool) -> [Element] {
        var removed: [Element] = []
        for lane in lanes.keys.sorted() {
            removed += lanes[lane]?.removeAll(where: predicate) ?? []
            if lanes[lane]?.count == 0 { lanes[lane] = nil }
        }
        return removed
    }

    /// How many elements wait at `rank`, over every requirement set.
    func count(rank: Int) -> Int {
        lanes.reduce(0) { $0 + ($1.key.rank == rank ? $1.value.count : 0) }
    }
}
