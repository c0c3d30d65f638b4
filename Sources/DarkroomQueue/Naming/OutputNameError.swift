import DarkroomSystem

/// Why an output-name template (`--name`, a job's `name`) was refused, or why the name it gives
/// a job cannot be used. Never transient: the same template and job give the same answer.
public struct OutputNameError: CodedDarkroomError, Equatable {
    /// Stable dotted codes.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The template is empty, or longer than `OutputNameTemplate.maxTemplateBytes`.
        case empty = "name.empty"
        /// `{…}` names a field the template does not have.
        case unknownField = "name.unknown-field"
        /// A `{` without its `}`, or a lone `}` (literal braces are written `{{` and `}}`).
        case unbalancedBrace = "name.unbalanced-brace"
        /// A `/`, NUL or other control character: a template names a file, not a path.
        case notAName = "name.not-a-name"
        /// The template has no `{ext}`, so the name would not say the file's format.
        case noExtension = "name.no-extension"
        /// The name starts with `.` (a hidden file, or `.`/`..`).
        case hidden = "name.hidden"
        /// The name is longer than 255 bytes (`NAME_MAX`).
        case tooLong = "name.too-long"
        /// Two jobs of one request would write the same output path.
        case collision = "name.collision"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var isTransient: Bool { false }
    public var description: String { message }
    public var contextLabel: String? { "bad output name" }
}
