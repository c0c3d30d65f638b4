import DarkroomCore
import DarkroomQueue

/// Checks and canonicalises the chains of jobs about to be enqueued, so a bad chain is refused
/// before anything is sent and every job carries the one spelling workers and caches agree on.
///
/// A processor this build knows is bound (every argument checked, defaults filled in) and printed
/// canonically. A processor this build lacks is accepted when a live worker advertises it (a
/// plugin deployed on the workers only): it is kept as written — re-spelled from its parsed
/// arguments — and the worker checks its arguments; `notes` says so once per name. Anything else
/// is a `ChainError` whose column points into the text as typed.
///
/// Each distinct chain text is checked once, so a 100,000-line list with one chain costs one parse.
public struct ChainValidator {
    /// The processors this program knows and can check fully.
    public let registry: ProcessorRegistry
    /// The live workers, asked for at most once, and only when a chain names a processor this
    /// build lacks (so the common case needs no round trip).
    private let fetchWorkers: () async throws -> [WorkerInfo]
    private var remote: [String: [(worker: String, version: Int)]]?
    private var canonical: [String: String] = [:]
    private var noted: Set<String> = []
    /// One line per processor accepted only because workers offer it.
    public private(set) var notes: [String] = []

    /// `workers` lists the live workers (`{ try await queue.liveWorkers() }`, or `{ [] }` when
    /// only `registry` counts, as in an embedded run).
    public init(registry: ProcessorRegistry, workers: @escaping () async throws -> [WorkerInfo]) {
        self.registry = registry
        self.fetchWorkers = workers
    }

    /// The canonical text of `text`. Throws `ChainError` for a bad chain; rethrows the queue's
    /// error when the live workers had to be asked and could not be.
    public mutating func canonicalize(_ text: String) async throws -> String {
        if let known = canonical[text] { return known }
        let parsed = try ChainParser.parse(text)
        let result: String
        if parsed.calls.allSatisfy({ registry.descriptor(named: $0.name) != nil }) {
            result = try registry.chain(from: text).canonicalText
        } else {
            result = try await mixed(text, parsed)
        }
        canonical[text] = result
        return result
    }

    /// A chain naming at least one processor this build lacks: binds the known calls one by one
    /// (their errors' columns shifted back into the whole text) and keeps the offered ones.
    private mutating func mixed(_ text: String, _ parsed: ParsedChain) async throws -> String {
        let remote = try await remoteProcessors()
        let scalars = Array(text.unicodeScalars)
        var pieces: [String] = []
        for (index, call) in parsed.calls.enumerated() {
            let start = call.column - 1
            let end = index + 1 < parsed.calls.count ? parsed.calls[index + 1].column - 1 : scalars.count
            if registry.descriptor(named: call.name) != nil {
                let segment = Self.segment(scalars, start, end)
                do {
                    pieces.append(try registry.chain(from: segment).canonicalText)
                } catch {
                    var shifted = error
                    shifted.column += start
                    throw shifted
                }
            } else if let offers = remote[call.name] {
                pieces.append(Self.render(call))
                if noted.insert(call.name).inserted {
                    let who = offers.prefix(3).map { "\($0.worker) v\($0.version)" }.joined(separator: ", ")
                    notes.append(
                        "note: '\(call.name)' is not built into this darkroom; accepted because live workers offer it (\(who)\(offers.count > 3 ? ", …" : "")); its arguments are checked by the worker"
                    )
                }
            } else {
                let names = registry.all.map(\.name) + remote.keys.sorted()
                let suggestion =
                    names.first { $0.lowercased() == call.name.lowercased() }
                    ?? Self.localSuggestion(registry, call.name)
                throw ChainError(
                    code: .unknownProcessor, column: call.column,
                    message: "unknown processor '\(call.name)' (not built in, and no live worker offers it)",
                    suggestion: suggestion)
            }
        }
        return pieces.joined(separator: "|>")
    }

    private mutating func remoteProcessors() async throws -> [String: [(worker: String, version: Int)]] {
        if let remote { return remote }
        var offers: [String: [(worker: String, version: Int)]] = [:]
        for worker in try await fetchWorkers().sorted(by: { $0.name < $1.name }) {
            for (name, version) in worker.processors { offers[name, default: []].append((worker.name, version)) }
        }
        remote = offers
        return offers
    }

    /// The call's own text: from its name to just before the next `|>`.
    static func segment(_ scalars: [Unicode.Scalar], _ start: Int, _ end: Int) -> String {
        var slice = scalars[max(0, start)..<min(end, scalars.count)]
        while let last = slice.last, last.properties.isWhitespace { slice = slice.dropLast() }
        if slice.count >= 2, slice.suffix(2).elementsEqual("|>".unicodeScalars) { slice = slice.dropLast(2) }
        while let last = slice.last, last.properties.isWhitespace { slice = slice.dropLast() }
        return String(String.UnicodeScalarView(slice))
    }

    /// `name(a, b, key: value)` from the parsed call, in the parser's canonical value spelling.
    static func render(_ call: ParsedCall) -> String {
        guard !call.arguments.isEmpty else { return call.name }
        let arguments = call.arguments.map { argument in
            argument.label.map { "\($0): \(argument.value)" } ?? argument.value.description
        }
        return "\(call.name)(\(arguments.joined(separator: ", ")))"
    }

    /// The registry's own typo suggestion for `name` (it only has its own names to offer).
    private static func localSuggestion(_ registry: ProcessorRegistry, _ name: String) -> String? {
        do {
            _ = try registry.chain(from: name)
            return nil
        } catch {
            return error.suggestion
        }
    }
}
