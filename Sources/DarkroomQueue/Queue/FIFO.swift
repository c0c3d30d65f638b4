/// A first-in-first-out buffer with O(1) amortised push and pop: an array and a head index,
/// compacted when the consumed prefix outgrows the live part. (No swift-collections `Deque`
/// dependency for one small use.)
struct FIFO<Element> {
    private var storage: [Element] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }
    var first: Element? { isEmpty ? nil : storage[head] }

    mutating func append(_ element: Element) { storage.append(element) }

    /// Changes the first element in place; does nothing when empty.
    mutating func updateFirst(_ body: (inout Element) -> Void) {
        guard head < storage.count else { return }
        body(&storage[head])
    }

    mutating func removeAll() {
        storage = []
        head = 0
    }

    mutating func popFirst() -> Element? {
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
    mutating func removeAll(where predicate: (Element) -> Bool) -> [Element] {
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
    var elements: ArraySlice<Element> { storage[head...] }
}
