/// A processor described by its parameters only, as workers advertise it in their heartbeats:
/// enough for a program that lacks the processor (a plugin deployed on the workers only) to check
/// a chain's arguments and print its canonical text exactly as a worker would.
///
/// A plain record with no image code, so the queue targets can carry it without linking the
/// pixels: `DarkroomCore` converts it from and to a `ProcessorDescriptor`. Its JSON is versioned
/// by `schema` (`ProcessorSchema.formatVersion`); a reader skips a schema of a newer format or
/// with a kind it does not know (`ReadableProcessorSchemas`) rather than misread it.
public struct ProcessorSchema: Sendable, Hashable {
    /// The version of this record's JSON, written as `schema`.
    public static let formatVersion = 1

    public var name: String
    /// The processor's algorithm version (the `N` of `name.vN` in identifiers).
    public var version: Int
    public var summary: String
    /// The external plugin module the processor comes from; nil for the standard processors.
    public var module: Module?
    /// Parameters in positional order.
    public var parameters: [Parameter]

    public init(name: String, version: Int, summary: String, module: Module? = nil, parameters: [Parameter]) {
        self.name = name
        self.version = version
        self.summary = summary
        self.module = module
        self.parameters = parameters
    }

    /// A plugin module's name and version, as in `mosaic.v1[acme 1.2.0](8)`.
    public struct Module: Sendable, Hashable, Codable {
        public var name: String
        public var version: String

        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// One parameter: its name, the values it takes, its default and what it means.
    public struct Parameter: Sendable, Hashable {
        public var name: String
        public var kind: Kind
        /// The default in canonical chain text (`center`, `#00000000`, `topLeft+topRight`, `0.5`);
        /// nil makes the parameter required, unless it `isOptional`.
        public var defaultText: String?
        /// An optional parameter without a default: left out of a chain, it is absent from the
        /// arguments and the canonical text. Never together with a `defaultText`.
        public var isOptional: Bool
        public var summary: String

        public init(name: String, kind: Kind, defaultText: String? = nil, isOptional: Bool = false, summary: String = "") {
            self.name = name
            self.kind = kind
            self.defaultText = defaultText
            self.isOptional = isOptional
            self.summary = summary
        }
    }

    /// The kinds of values a parameter takes; the chain syntax's kinds (`ParameterSpec.Kind`).
    public enum Kind: Sendable, Hashable {
        /// A number from `min` to `max`; a missing bound is unbounded on that side.
        case number(min: Double?, max: Double?)
        /// A number greater than zero and at most `max` (unbounded when nil).
        case positive(max: Double?)
        /// A whole number from `min` to `max`.
        case integer(min: Int, max: Int)
        /// `WxH`.
        case size
        /// `WxH`, or a width `Wx` or a height `xH` alone (the standard geometry processors'
        /// boxes). Written as a `size` with `"oneSided": true`, so a reader older than one-sided
        /// boxes takes it for a size and refuses a free side rather than skipping the schema.
        case box
        /// `#RRGGBB[AA]`.
        case color
        /// One of the listed words.
        case choice([String])
        /// One or more of the listed words joined with `+`, or `all`.
        case choiceSet([String])
        /// A named anchor or a unit point `(x, y)`.
        case anchor
        /// A point `x,y` with both coordinates in 0…1 (a focal point).
        case point
        /// A ratio `W:H` of whole numbers in 1…1000.
        case ratio
        /// Quoted text of 1…`maxLength` characters (a watermark's source).
        case text(maxLength: Int)
    }
}
