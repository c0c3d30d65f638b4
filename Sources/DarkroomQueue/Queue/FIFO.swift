/// A first-in-first-out buffer with O(1) amortised push and pop: an array and a head index,
/// compacted when the consumed prefix outgrows the live part. (No swift-collections `Deque`
/// dependency for a few small uses.) Package-wide: the in-memory queue and `DarkroomEventStream`'s
/// drop-oldest buffer use it.
package struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    package init() {}

    package var count: Int { storage.count - head }
    package var isEmpty: Bool { head == storage.count }
    package var first: Element? { isEmpty ? nil : storage[head] }

    package mutating func append(_ element: Element) { storage.append(element) }

    /// Changes the first element in place; does nothing when empty.
    package mutating func updateFirst(_ body: (inout Element) -> Void) {
        guard head < storage.count else { return }
        body(&storage[head])
    }

    package mutating func removeAll() {
        storage = []
        head = 0
    }

    package mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head >= 1024, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes and returns, in order, every element matching `predicate`.
    package mutating func removeAll(where predicate: (Element) -> Bool) -> [Element] {
        var kept: [Element] = []
        var removed: [Element] = []
        kept.reserveCapacity(count)
        for element in storage[head...] {
            if predicate(element) { removed.append(element) } else { kept.append(element) }
        }
        storage = kept
        head = 0
        return removed
    }

    /// The live elements in order (for reads that must not consume).
    package var elements: ArraySlice<Element> { storage[head...] }
}
