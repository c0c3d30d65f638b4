import DarkroomChains
import DarkroomCore

/// Shared helpers for the colour and shape processors' parameters.
enum ColorParameter {
    /// The largest pixel distance any radius or width can usefully have (the longest side a
    /// bitmap may have); chain text accepts numbers up to this.
    static let maximumPixels = StandardProcessorSpecs.maximumPixels

    /// `value` clamped into `range`; NaN becomes `fallback`. Processors built from Swift (not from
    /// chain text, which the binder has already checked) go through this so that no value can
    /// make a kernel misbehave, and the identifier shows what is actually applied.
    static func clamp(_ value: Double, to range: ClosedRange<Double>, fallback: Double) -> Double {
        value.isNaN ? fallback : min(range.upperBound, max(range.lowerBound, value))
    }
}
