/// A provider was registered for a scheme that already has one.
public struct ProviderRegistrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The schemes that were already taken, sorted.
    public var schemes: [String]
    public var message: String

    public var description: String { message }
}

/// The providers by scheme (Kingfisher's data providers, keyed the way SDWebImage keys its
/// loaders): `file`, `data`, `http`/`https`, and any a plugin adds.
///
/// A scheme has exactly one provider: registering a second is an error rather than a silent
/// override, so a plugin cannot quietly replace the HTTP provider and its address checks.
public struct ProviderRegistry: Sendable {
    private var providers: [String: any DataProviding] = [:]

    /// An empty registry.
    public init() {}

    /// A registry holding `providers`; throws if two handle the same scheme.
    public init(_ providers: [any DataProviding]) throws(ProviderRegistrationError) {
        for provider in providers { try register(provider) }
    }

    /// Adds `provider` for each of its schemes (lower-cased). All or nothing: if any scheme is
    /// already taken (or the provider declares none), nothing is registered.
    public mutating func register(_ provider: any DataProviding) throws(ProviderRegistrationError) {
        let schemes = Set(provider.schemes.map { $0.lowercased() })
        guard !schemes.isEmpty else {
            throw ProviderRegistrationError(schemes: [], message: "\(type(of: provider)) declares no schemes")
        }
        let taken = schemes.filter { providers[$0] != nil }.sorted()
        guard taken.isEmpty else {
            let owners = taken.map { scheme in
                "'\(scheme)' (by \(providers[scheme].map { "\(type(of: $0))" } ?? "another provider"))"
            }.joined(separator: ", ")
            throw ProviderRegistrationError(
                schemes: taken,
                message: "cannot register \(type(of: provider)): scheme \(owners) is already registered")
        }
        for scheme in schemes { providers[scheme] = provider }
    }

    /// The registered schemes, sorted.
    public var schemes: [String] { providers.keys.sorted() }

    /// The provider for `scheme` (case-insensitive), if any.
    public func provider(for scheme: String) -> (any DataProviding)? {
        providers[scheme.lowercased()]
    }

    /// The provider for `reference`, or `.unsupportedScheme` naming the known schemes.
    public func provider(for reference: SourceReference) throws(SourceError) -> any DataProviding {
        guard let provider = providers[reference.scheme] else {
            let known = schemes.isEmpty ? "none are registered" : "known schemes: \(schemes.joined(separator: ", "))"
            throw SourceError(
                .unsupportedScheme, source: reference.description,
                "no provider handles '\(reference.scheme):' sources (\(known))")
        }
        return provider
    }

    /// The provider's cache key for `reference`, when it can tell without fetching.
    public func cacheKey(for reference: SourceReference, policy: SourcePolicy) throws(SourceError) -> String? {
        try provider(for: reference).cacheKey(for: reference, policy: policy)
    }

    /// Fetches `reference` with its scheme's provider.
    public func fetch(_ reference: SourceReference, policy: SourcePolicy) async throws(SourceError) -> FetchedSource {
        try await provider(for: reference).fetch(reference, policy: policy)
    }
}
