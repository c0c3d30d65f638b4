extension Array where Element == String {
    /// `a, b or c` (`a` alone, `a or b`): how messages list formats to choose from.
    public var joinedWithOr: String {
        count < 2 ? joined() : dropLast().joined(separator: ", ") + " or " + last!
    }
}
