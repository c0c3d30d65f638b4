/// The two-part values: a focal point `x,y` and a ratio `W:H`. Each part is checked on its own, so
/// an error points at the bad number's column (`focus: 0.5,1.2` at the `1.2`).
extension ArgumentBinder {
    /// A point with both coordinates in 0…1, as a pair (`ArgumentValue.pair`) whichever way it
    /// was written (`0.3,0.7` or `(0.3, 0.7)`), so both spellings print alike.
    func normalisePoint(_ point: UnitPoint, parameter: ParameterSpec, column: Int, parts: [Int]) throws(ChainError) -> ArgumentValue {
        for (index, (axis, coordinate)) in [("x", point.x), ("y", point.y)].enumerated() where !(coordinate.isFinite && (0...1).contains(coordinate)) {
            throw ChainError(
                code: .invalidArgument, processor: spec.name, argument: parameter.name,
                column: index < parts.count ? parts[index] : column,
                message: "\(parameter.name) must have x and y in 0…1 (got \(axis) = \(ArgumentValue.format(coordinate)))")
        }
        return .pair(point)
    }

    /// A ratio with both terms in 1…`AspectRatio.maximumTerm`, in lowest terms (`32:18` is `16:9`).
    func normaliseRatio(_ ratio: AspectRatio, parameter: ParameterSpec, column: Int, parts: [Int]) throws(ChainError) -> ArgumentValue {
        let range = 1...AspectRatio.maximumTerm
        for (index, term) in [ratio.width, ratio.height].enumerated() where !range.contains(term) {
            throw ChainError(
                code: .invalidArgument, processor: spec.name, argument: parameter.name,
                column: index < parts.count ? parts[index] : column,
                message: "\(parameter.name) must have both terms in 1…\(AspectRatio.maximumTerm) (got \(ratio))")
        }
        return .ratio(ratio.reduced)
    }
}
