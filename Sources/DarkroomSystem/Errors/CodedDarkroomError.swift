/// A `DarkroomError` whose stable codes are an enum of its own (`ChainError.Code`, …): its
/// `errorCode` is the case's raw value, written once here instead of in every such type.
public protocol CodedDarkroomError: DarkroomError {
    associatedtype Code: RawRepresentable where Code.RawValue == String
    /// The error's code, one case per kind of failure.
    var code: Code { get }
}

extension CodedDarkroomError {
    public var errorCode: String { code.rawValue }
}
