import CDarkroomPlugin
import DarkroomCore
import DarkroomSchema

/// One `darkroom_param` read into the schema record a worker advertises (`ProcessorSchema.Parameter`),
/// checking what only C can get wrong: NULL and non-UTF-8 strings, unknown kind codes, ranges that
/// are not finite (or not whole, for integers), choices that are not words. The parameters then
/// become `ParameterSpec`s through the one conversion every schema takes
/// (`ParameterSpec.parameters(from:processor:)`), so a plugin's arguments get exactly the
/// built-ins' errors, columns and suggestions.
enum CParameterSchema {
    struct Problem: Error {
        var reason: String
    }

    static func read(_ param: darkroom_param) throws(Problem) -> ProcessorSchema.Parameter {
        guard let name = ExternalModuleReader.string(param.name), ProcessorRegistry.isValidName(name) else {
            throw Problem(reason: "parameter name '\(ExternalModuleReader.string(param.name) ?? "NULL")' must be letters, digits and _, starting with a letter")
        }
        func malformed(_ problem: String) -> Problem { Problem(reason: "parameter '\(name)': \(problem)") }
        let kind: ProcessorSchema.Kind
        switch param.kind {
        case DARKROOM_KIND_NUMBER:
            guard param.min.isFinite, param.max.isFinite, param.min <= param.max else {
                throw malformed("range \(param.min)…\(param.max) must be finite with min <= max")
            }
            kind = .number(min: param.min, max: param.max)
        case DARKROOM_KIND_INTEGER:
            guard param.min.isFinite, param.max.isFinite, param.min <= param.max, param.min == param.min.rounded(),
                param.max == param.max.rounded(), abs(param.min) <= 1e15, abs(param.max) <= 1e15
            else {
                throw malformed("range \(param.min)…\(param.max) must be whole numbers with min <= max")
            }
            kind = .integer(min: Int(param.min), max: Int(param.max))
        case DARKROOM_KIND_SIZE:
            kind = .size
        case DARKROOM_KIND_COLOR:
            kind = .color
        case DARKROOM_KIND_CHOICE:
            guard param.choice_count >= 1, param.choice_count <= 256, let choices = param.choices else {
                throw malformed("a choice needs 1 to 256 choices")
            }
            var words: [String] = []
            for index in 0..<Int(param.choice_count) {
                guard let word = ExternalModuleReader.string(choices[index]), ProcessorRegistry.isValidName(word) else {
                    throw malformed("choice \(index) must be a word of letters, digits and _, starting with a letter")
                }
                guard !words.contains(word) else { throw malformed("choice '\(word)' is listed twice") }
                words.append(word)
            }
            kind = .choice(words)
        default:
            throw malformed("unknown kind \(param.kind) (this darkroom knows DARKROOM_KIND_NUMBER … DARKROOM_KIND_CHOICE, 1…5)")
        }
        var defaultText: String?
        if let text = param.default_value {
            guard let string = String(validatingCString: text) else { throw malformed("default is not UTF-8") }
            defaultText = string
        }
        return ProcessorSchema.Parameter(name: name, kind: kind, defaultText: defaultText, summary: ExternalModuleReader.string(param.summary) ?? "")
    }
}
