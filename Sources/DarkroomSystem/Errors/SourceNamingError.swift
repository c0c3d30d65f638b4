/// A `DarkroomError` about one named input (a file, a URL) whose text is `SOURCE: MESSAGE`, so it
/// names its source itself and reports put nothing in front of it.
public protocol SourceNamingError: DarkroomError {
    /// The input's name as the user gave it (path, URL).
    var source: String { get }
    /// What is wrong, for a person, without the source.
    var message: String { get }
}

extension SourceNamingError {
    public var description: String { "\(source): \(message)" }
    public var messageNamesSource: Bool { true }
}
