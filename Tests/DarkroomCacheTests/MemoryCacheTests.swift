import DarkroomCache
import Foundation
import Synchronization
import Testing

@Suite("MemoryCache is a cost- and count-limited LRU")
struct MemoryCacheTests {
    @Test("Going over the cost limit evicts least recently used entries; a read makes an entry recent")
    func costLimit() {
        let cache = MemoryCache<String, [UInt8]>(costLimit: 100)
        cache.set([1], for: "a", cost: 40)
        cache.set([2], for: "b", cost: 40)
        #expect(cache.value(for: "a") == [1])  // a becomes the most recently used
        cache.set([3], for: "c", cost: 40)  // 120 > 100: b (least recent) goes
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == [1])
        #expect(cache.value(for: "c") == [3])
        #expect(cache.totalCost == 80)
        #expect(cache.keysByRecency == ["c", "a"])
    }

    @Test("The count limit holds whatever the costs")
    func countLimit() {
        let cache = MemoryCache<Int, Int>(costLimit: 1_000_000, countLimit: 3)
        for key in 0..<10 { cache.set(key * 10, for: key, cost: 1) }
        #expect(cache.count == 3)
        #expect(cache.keysByRecency == [9, 8, 7])
        #expect(cache.value(for: 6) == nil)
        #expect(cache.totalCost == 3)
    }

    @Test("Replacing a value updates its cost; a value costing more than the limit is not kept and drops the old one")
    func replaceAndOversize() {
        let cache = MemoryCache<String, String>(costLimit: 50)
        cache.set("small", for: "k", cost: 10)
        cache.set("bigger", for: "k", cost: 30)
        #expect(cache.totalCost == 30)
        #expect(cache.value(for: "k") == "bigger")
        cache.set("huge", for: "k", cost: 51)
        #expect(cache.value(for: "k") == nil)
        #expect(cache.totalCost == 0)
        #expect(cache.count == 0)
    }

    @Test("removeValue and removeAll empty the cache, and freed slots are reused")
    func removal() {
        let cache = MemoryCache<Int, Int>(costLimit: 100)
        for key in 0..<5 { cache.set(key, for: key, cost: 10) }
        #expect(cache.removeValue(for: 2) == 2)
        #expect(cache.totalCost == 40)
        cache.set(99, for: 99, cost: 10)
        #expect(cache.keysByRecency == [99, 4, 3, 1, 0])
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
        cache.set(1, for: 1, cost: 1)
        #expect(cache.value(for: 1) == 1)
    }

    @Test("Many threads setting and reading at once keep the cost within the limit and every value correct")
    func threadSafety() {
        let cache = MemoryCache<Int, [Int]>(costLimit: 5000, countLimit: 400)
        let wrong = Atomic<Int>(0)
        CacheTestKit.onThreads(8) { thread in
            for step in 0..<5000 {
                let key = (step * 31 + thread * 7) % 500
                if step % 3 == 0 {
                    cache.set([key, key * 2], for: key, cost: key % 40 + 1)
                } else if let value = cache.value(for: key), value != [key, key * 2] {
                    wrong.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(cache.totalCost <= 5000)
        #expect(cache.count <= 400)
        #expect(cache.keysByRecency.count == cache.count)
    }
}
