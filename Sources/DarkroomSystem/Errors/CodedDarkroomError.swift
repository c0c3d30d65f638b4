/// A `DarkroomError` whose stable codes are an enum of its own (`ChainError.Code`, …): its
/// `errorCode` is the case's raw value, written once here instead of in every such type.
///
/// `Code` is `CaseIterable` so the codes a type can produce are a list: the error-code registry
/// test reads `producibleCodes` of every error type and checks each is in the docs' table.
public protocol CodedDarkroomError: DarkroomError {
    associatedtype Code: RawRepresentable & CaseIterable & Sendable where Code.RawValue == String
    /// The error's code, one case per kind of failure.
    var code: Code { get }
}

extension CodedDarkroomError {
    public var errorCode: String { code.rawValue }

    /// Every code an error of this type can carry.
    public static var producibleCodes: [String] { Code.allCases.map(\.rawValue) }
}
