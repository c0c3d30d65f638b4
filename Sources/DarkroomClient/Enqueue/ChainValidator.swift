import DarkroomChains
import DarkroomQueue

/// Checks and canonicalises the chains of jobs about to be enqueued, so a bad chain is refused
/// before anything is sent and every job carries the one spelling workers and caches agree on.
///
/// A processor this build knows is bound (every argument checked, defaults filled in) and printed
/// canonically. A processor this build lacks is accepted when a live worker advertises it (a
/// plugin deployed on the workers only): when a worker describes it by a schema it is bound
/// against that schema just as a built-in one is (`FleetOffers` says which schema when workers
/// differ); from workers without schemas it is kept as written — re-spelled from its parsed
/// arguments — and the worker checks its arguments. `notes` says so once per name. Anything else
/// is a `ChainError` whose column points into the text as typed.
///
/// Each distinct chain text is checked once, so a 100,000-line list with one chain costs one parse.
public struct ChainValidator {
    /// The processors this program knows and can check fully.
    public let registry: ValidationOnlyRegistry
    /// The live workers, asked for at most once, and only when a chain names a processor this
    /// build lacks (so the common case needs no round trip).
    private let fetchWorkers: () async throws -> [WorkerInfo]
    private var fleet: FleetOffers?
    private var canonical: [String: String] = [:]
    /// The processor capabilities each canonical chain requires, by its text.
    private var required: [String: [String]] = [:]
    private var noted: Set<String> = []
    /// One line per processor accepted only because workers offer it.
    public private(set) var notes: [String] = []

    /// `workers` lists the live workers (`{ try await queue.liveWorkers() }`, or `{ [] }` when
    /// only `registry` counts, as in an embedded run).
    public init(registry: ValidationOnlyRegistry, workers: @escaping () async throws -> [WorkerInfo]) {
        self.registry = registry
        self.fetchWorkers = workers
    }

    /// The canonical text of `text`. Throws `ChainError` for a bad chain; rethrows the queue's
    /// error when the live workers had to be asked and could not be.
    public mutating func canonicalize(_ text: String) async throws -> String {
        if let known = canonical[text] { return known }
        let parsed = try ChainParser.parse(text)
        let result: String
        if parsed.calls.allSatisfy({ registry.spec(named: $0.name) != nil }) {
            result = try registry.canonicalText(of: parsed)
        } else {
            result = try await mixed(parsed)
        }
        canonical[text] = result
        return result
    }

    /// `processor:<name>` for each processor of a canonical chain outside
    /// `Capabilities.baselineProcessors`, `box-size` when an argument is a width-only or
    /// height-only box (`downsample(400x)`), `focus-point` when one is a focal point (`focus:
    /// 0.8,0.3`) and `aspect-ratio` when one is a ratio (`aspect: 16:9`), sorted (empty when it
    /// needs none of these): what a worker must offer to run it.
    public mutating func processorRequirements(ofCanonical text: String) throws -> [String] {
        if let known = required[text] { return known }
        let calls = try ChainParser.parse(text).calls
        let names = calls.map(\.name).filter { !Capabilities.baselineProcessors.contains($0) }
        var features: [String] = []
        for call in calls {
            // Only a processor this build binds can take a one-sided box (a `box` parameter).
            guard registry.spec(named: call.name) != nil else { continue }
            let arguments = try registry.invocation(of: call).arguments
            for argument in arguments {
                switch argument.value {
                case .oneSidedBox: features.append(Capabilities.boxSize)
                case .pair: features.append(Capabilities.focusPoint)
                case .ratio: features.append(Capabilities.aspectRatio)
                default: continue
                }
            }
        }
        let result = Capabilities.canonical(names.map(Capabilities.processor) + features) ?? []
        required[text] = result
        return result
    }

    /// A chain naming at least one processor this build lacks: binds each call on its own — the
    /// built-in ones against this build's descriptors, the offered ones against the chosen
    /// schema — with the columns of the whole text, and keeps offered ones without a schema as written.
    private mutating func mixed(_ parsed: ParsedChain) async throws -> String {
        let fleet = try await fleetOffers()
        var pieces: [String] = []
        for call in parsed.calls {
            if registry.spec(named: call.name) != nil {
                pieces.append(try registry.invocation(of: call).canonicalText)
            } else if fleet.offers[call.name] != nil {
                let described = fleet.schemas.spec(named: call.name) != nil
                pieces.append(described ? try fleet.schemas.invocation(of: call).canonicalText : Self.render(call))
                if noted.insert(call.name).inserted { notes.append(fleet.note(for: call.name)) }
            } else {
                throw ChainError(
                    code: .unknownProcessor, column: call.column,
                    message: "unknown processor '\(call.name)' (not built in, and no live worker offers it)",
                    suggestion: NameSuggester.nearest(to: call.name, among: registry.names + fleet.names))
            }
        }
        return pieces.joined(separator: "|>")
    }

    private mutating func fleetOffers() async throws -> FleetOffers {
        if let fleet { return fleet }
        let offers = FleetOffers(workers: try await fetchWorkers())
        fleet = offers
        return offers
    }

    /// `name(a, b, key: value)` from the parsed call, in the parser's canonical value spelling.
    static func render(_ call: ParsedCall) -> String {
        guard !call.arguments.isEmpty else { return call.name }
        let arguments = call.arguments.map { argument in
            argument.label.map { "\($0): \(argument.value)" } ?? argument.value.description
        }
        return "\(call.name)(\(arguments.joined(separator: ", ")))"
    }
}
