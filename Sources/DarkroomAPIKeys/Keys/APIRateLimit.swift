/// A key's token bucket: `burst` requests at once, refilled at `perSecond` requests a second.
///
/// A key that has been idle holds `burst` tokens; each request takes one; tokens come back at
/// `perSecond` until the bucket is full again. So a client may send `burst` requests in one go,
/// then `perSecond` a second for as long as it likes.
public struct APIRateLimit: Sendable, Hashable, Codable {
    /// Tokens added per second (may be fractional: 0.5 is one request every two seconds).
    public var perSecond: Double
    /// The bucket's size: the most requests allowed at once after an idle spell.
    public var burst: Int

    /// The defaults of `darkroom api-key create`: 50 requests a second, bursts of 100.
    public static let `default` = APIRateLimit(perSecond: 50, burst: 100)

    /// The range `perSecond` must be in.
    public static let rates: ClosedRange<Double> = 0.001...1_000_000
    /// The range `burst` must be in.
    public static let bursts: ClosedRange<Int> = 1...1_000_000

    public init(perSecond: Double, burst: Int) {
        self.perSecond = perSecond
        self.burst = burst
    }

    /// `perSecond` as people write it: `50`, not `50.0`; fractions as they are (`0.5`).
    public var perSecondText: String {
        perSecond.rounded() == perSecond && abs(perSecond) < 1e15 ? String(Int64(perSecond)) : String(perSecond)
    }

    /// What is wrong with these values, or nil.
    var problem: String? {
        guard perSecond.isFinite, Self.rates.contains(perSecond) else {
            return "the rate must be 0.001…1000000 requests a second (got \(perSecond))"
        }
        guard Self.bursts.contains(burst) else { return "the burst must be 1…1000000 requests (got \(burst))" }
        return nil
    }
}
