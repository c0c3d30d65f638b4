import DarkroomSystem

/// Makes RFC 9562 UUIDv7 strings (`0190b5e2-7c1d-7a3f-9e21-5b8c0d4e6f70`): 48 bits of Unix
/// milliseconds, the version nibble 7, a 12-bit counter, the variant bits `10`, and 62 random bits.
///
/// The lowercase text sorts in creation order, which is why job and event ids use it: listings and
/// dead-letter views come out chronological without a separate timestamp index. Within one
/// generator the ids are strictly increasing even when the clock stands still or steps back
/// (RFC 9562 §6.2 method 1: the counter counts within a millisecond, and the time is held at the
/// last value used until the clock passes it). Across processes they are unique by their random bits
/// and ordered by time to the millisecond.
public final class SortableIDGenerator: Sendable {
    private struct State {
        var lastMilliseconds: Int64 = .min
        var counter: UInt16 = 0
        var random: any RandomNumberGenerator & Sendable
    }

    private let state: Locked<State>

    /// The process-wide generator behind `JobID.make()` and event ids.
    public static let shared = SortableIDGenerator()

    /// A generator drawing random bits from `random` (inject a seeded one for reproducible tests).
    public init(random: any RandomNumberGenerator & Sendable = BufferedSystemRandom()) {
        state = Locked(State(random: random))
    }

    /// The next id for an id made at `now`.
    public func make(now: Timestamp = .now()) -> String {
        let (milliseconds, counter, random) = state.withLock { state -> (Int64, UInt16, UInt64) in
            var milliseconds = max(now.millisecondsSince1970, 0)
            if milliseconds > state.lastMilliseconds {
                // A fresh millisecond starts the counter low but random, leaving room to count up.
                state.counter = UInt16.random(in: 0..<0x400, using: &state.random)
            } else {
                milliseconds = state.lastMilliseconds
                state.counter &+= 1
                if state.counter > 0xFFF {
                    // 4,096 ids in one millisecond: borrow the next millisecond rather than repeat.
                    milliseconds += 1
                    state.counter = 0
                }
            }
            state.lastMilliseconds = milliseconds
            return (milliseconds, state.counter, UInt64.random(in: .min ... .max, using: &state.random))
        }
        return SortableIDGenerator.format(milliseconds: milliseconds, counter: counter, random: random)
    }

    /// The UUIDv7 text for the given fields (the top two bits of `random` are replaced by the variant).
    static func format(milliseconds: Int64, counter: UInt16, random: UInt64) -> String {
        let time = UInt64(truncatingIfNeeded: milliseconds) & 0xFFFF_FFFF_FFFF
        let high = (time << 16) | 0x7000 | UInt64(counter & 0xFFF)
        let low = (random & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = HexDigits.lowercaseDigits
        var bytes = [UInt8]()
        bytes.reserveCapacity(36)
        for (index, shift) in stride(from: 60, through: 0, by: -4).enumerated() {
            if index == 8 || index == 12 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(hex[Int((high >> UInt64(shift)) & 0xF)])
        }
        for (index, shift) in stride(from: 60, through: 0, by: -4).enumerated() {
            if index == 0 || index == 4 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(hex[Int((low >> UInt64(shift)) & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
