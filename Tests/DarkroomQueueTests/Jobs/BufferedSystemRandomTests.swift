import DarkroomQueue
import Testing

@Suite("The buffered system generator behind job ids")
struct BufferedSystemRandomTests {
    @Test("Values across several refills of its 32-value buffer are all distinct and use every bit")
    func distinctAcrossRefills() {
        var random = BufferedSystemRandom()
        let values = (0..<200).map { _ in random.next() }
        // 200 draws of 64 random bits repeat with a probability of about 1e-15.
        #expect(Set(values).count == values.count)
        // Every bit position is set in some value and clear in another (false with probability ~1e-58).
        #expect(values.reduce(0, |) == .max)
        #expect(values.reduce(.max, &) == 0)
    }

    @Test("Two generators do not share a sequence")
    func independent() {
        var first = BufferedSystemRandom()
        var second = BufferedSystemRandom()
        #expect((0..<8).map { _ in first.next() } != (0..<8).map { _ in second.next() })
    }
}
