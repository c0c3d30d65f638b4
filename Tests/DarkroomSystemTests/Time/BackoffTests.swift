import DarkroomSystem
import Testing

/// A seeded generator (SplitMix64), so a test can replay the same draws.
private struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Backoff: the one retry policy")
struct BackoffTests {
    @Test("Backoff doubles from the initial delay up to the cap; without jitter it is exactly that ceiling")
    func ceilings() {
        let backoff = Backoff(initial: .seconds(1), cap: .seconds(300), jitter: .none)
        #expect(
            (1...10).map { backoff.delay(forAttempt: $0) }
                == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300].map { Duration.seconds($0) })
        // Attempt numbers come from job records: absurd ones saturate instead of overflowing.
        #expect(backoff.delay(forAttempt: 1_000_000) == .seconds(300))
        #expect(backoff.delay(forAttempt: -5) == .seconds(1))
        #expect(Backoff(initial: .zero, cap: .zero, jitter: .none).delay(forAttempt: 3) == .zero)
        #expect(Backoff(initial: .zero, cap: .seconds(5)).delay(forAttempt: 1_000_000) == .zero)
    }

    @Test("A multiplier other than 2, and a cap below the initial delay is raised to it")
    func multiplierAndCap() {
        let backoff = Backoff(initial: .milliseconds(100), multiplier: 3, cap: .seconds(1), jitter: .none)
        #expect((1...4).map { backoff.delay(forAttempt: $0) } == [100, 300, 900, 1000].map(Duration.milliseconds))
        #expect(Backoff(initial: .seconds(2), cap: .seconds(1)).cap == .seconds(2))
    }

    @Test("Full jitter draws uniformly between zero and the ceiling")
    func fullJitter() {
        let backoff = Backoff(initial: .seconds(1), cap: .seconds(300))
        let third = (0..<500).map { _ in backoff.delay(forAttempt: 3) }
        #expect(third.allSatisfy { $0 >= .zero && $0 <= .seconds(4) })
        // Spread over the range, not bunched at the ceiling: both halves are used.
        #expect(third.contains { $0 < .seconds(2) } && third.contains { $0 > .seconds(2) })
    }

    @Test("Equal jitter stays between half the ceiling and the ceiling")
    func equalJitter() {
        let backoff = Backoff(initial: .milliseconds(100), cap: .seconds(1), jitter: .equal)
        for attempt in 1...10 {
            let delay = backoff.delay(forAttempt: attempt)
            let full = min(Duration.milliseconds(100) * (1 << (attempt - 1)), .seconds(1))
            #expect(delay >= full / 2 && delay <= full)
        }
        #expect(Set((0..<20).map { _ in backoff.delay(forAttempt: 4) }).count > 1)
    }

    @Test("The random source is injectable: the same seed gives the same delays")
    func injectableRandomness() {
        let backoff = Backoff(initial: .seconds(1), cap: .seconds(300), jitter: .equal)
        var first = Seeded(state: 42)
        var second = Seeded(state: 42)
        let delays = (1...6).map { backoff.delay(forAttempt: $0, using: &first) }
        #expect(delays == (1...6).map { backoff.delay(forAttempt: $0, using: &second) })
        #expect(delays[1] >= .seconds(1) && delays[1] <= .seconds(2))
    }
}
