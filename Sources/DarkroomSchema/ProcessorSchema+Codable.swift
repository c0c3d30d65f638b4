/// The schema's JSON (format 1), keys as written by a sorted-keys encoder:
///
///     {"name":"resize","parameters":[{"kind":"size","name":"size","summary":"the target box, WxH"},
///      {"choices":["fit","fill","stretch"],"default":"fit","kind":"choice","name":"mode"}, …],
///      "schema":1,"summary":"…","version":1}
///
/// | key | type | meaning |
/// |---|---|---|
/// | `schema` | int | this record's format, `1` |
/// | `name`, `version`, `summary` | string, int, string | the processor (an empty summary is omitted) |
/// | `module` | object? | `{"name","version"}` of an external plugin module |
/// | `parameters` | array | in positional order: `name`, `kind` (`number`, `positive`, `integer`, `size`, `color`, `choice`, `choiceSet`, `anchor`, `point`, `ratio`), `min`/`max` (number bounds, absent = unbounded; both present for `integer`; `max` alone for `positive`), `choices` (for `choice` and `choiceSet`), `oneSided` (`true` on a `size` that also takes a width or a height alone, `400x`, `x300`), `default` (canonical chain text; absent = required), `optional` (`true` on a parameter without a default that may be left out; absent = false), `summary` |
///
/// Decoding throws for a newer `schema`, an unknown `kind` or a missing key; unknown keys are
/// ignored, so later formats may add keys without a version bump.
extension ProcessorSchema: Codable {
    enum CodingKeys: String, CodingKey {
        case schema, name, version, summary, module, parameters
    }

    /// Thrown for a schema of a format this build does not read.
    public struct UnsupportedFormat: Error, Sendable {
        public var format: Int
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decode(Int.self, forKey: .schema)
        guard format == Self.formatVersion else { throw UnsupportedFormat(format: format) }
        self.init(
            name: try container.decode(String.self, forKey: .name),
            version: try container.decode(Int.self, forKey: .version),
            summary: try container.decodeIfPresent(String.self, forKey: .summary) ?? "",
            module: try container.decodeIfPresent(Module.self, forKey: .module),
            parameters: try container.decodeIfPresent([Parameter].self, forKey: .parameters) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .schema)
        try container.encode(name, forKey: .name)
        try container.encode(version, forKey: .version)
        if !summary.isEmpty { try container.encode(summary, forKey: .summary) }
        try container.encodeIfPresent(module, forKey: .module)
        try container.encode(parameters, forKey: .parameters)
    }
}

extension ProcessorSchema.Parameter: Codable {
    enum CodingKeys: String, CodingKey {
        case name, kind, min, max, choices, oneSided
        case defaultText = "default"
        case isOptional = "optional"
        case summary
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind: ProcessorSchema.Kind
        switch try container.decode(String.self, forKey: .kind) {
        case "number":
            kind = .number(
                min: try container.decodeIfPresent(Double.self, forKey: .min), max: try container.decodeIfPresent(Double.self, forKey: .max))
        case "positive": kind = .positive(max: try container.decodeIfPresent(Double.self, forKey: .max))
        case "integer": kind = .integer(min: try container.decode(Int.self, forKey: .min), max: try container.decode(Int.self, forKey: .max))
        case "size": kind = try container.decodeIfPresent(Bool.self, forKey: .oneSided) == true ? .box : .size
        case "color": kind = .color
        case "choice": kind = .choice(try container.decode([String].self, forKey: .choices))
        case "choiceSet": kind = .choiceSet(try container.decode([String].self, forKey: .choices))
        case "anchor": kind = .anchor
        case "point": kind = .point
        case "ratio": kind = .ratio
        case "text": kind = .text(maxLength: try container.decode(Int.self, forKey: .max))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown parameter kind '\(other)'")
        }
        self.init(
            name: try container.decode(String.self, forKey: .name), kind: kind,
            defaultText: try container.decodeIfPresent(String.self, forKey: .defaultText),
            isOptional: try container.decodeIfPresent(Bool.self, forKey: .isOptional) ?? false,
            summary: try container.decodeIfPresent(String.self, forKey: .summary) ?? "")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        switch kind {
        case .number(let min, let max):
            try container.encode("number", forKey: .kind)
            try container.encodeIfPresent(min, forKey: .min)
            try container.encodeIfPresent(max, forKey: .max)
        case .positive(let max):
            try container.encode("positive", forKey: .kind)
            try container.encodeIfPresent(max, forKey: .max)
        case .integer(let min, let max):
            try container.encode("integer", forKey: .kind)
            try container.encode(min, forKey: .min)
            try container.encode(max, forKey: .max)
        case .size: try container.encode("size", forKey: .kind)
        case .box:
            try container.encode("size", forKey: .kind)
            try container.encode(true, forKey: .oneSided)
        case .color: try container.encode("color", forKey: .kind)
        case .choice(let words):
            try container.encode("choice", forKey: .kind)
            try container.encode(words, forKey: .choices)
        case .choiceSet(let words):
            try container.encode("choiceSet", forKey: .kind)
            try container.encode(words, forKey: .choices)
        case .anchor: try container.encode("anchor", forKey: .kind)
        case .point: try container.encode("point", forKey: .kind)
        case .ratio: try container.encode("ratio", forKey: .kind)
        case .text(let maxLength):
            try container.encode("text", forKey: .kind)
            try container.encode(maxLength, forKey: .max)
        }
        try container.encodeIfPresent(defaultText, forKey: .defaultText)
        if isOptional { try container.encode(true, forKey: .isOptional) }
        if !summary.isEmpty { try container.encode(summary, forKey: .summary) }
    }
}

/// A list of schemas read one by one, keeping those this build can read: a schema of a newer
/// format or with an unknown kind is skipped, not an error, so one newer plugin on a worker does
/// not make the worker's whole heartbeat unreadable. A skipped schema's processor is then known
/// by name and version only, as from a worker that advertises no schemas.
public struct ReadableProcessorSchemas: Decodable, Sendable {
    public var schemas: [ProcessorSchema] = []
    /// How many entries were skipped.
    public var skipped = 0

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            if let schema = try? container.decode(ProcessorSchema.self) {
                schemas.append(schema)
            } else {
                // Decoding moves past an entry only when it succeeds: step over the unreadable one.
                _ = try container.decode(Skipped.self)
                skipped += 1
            }
        }
    }

    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
