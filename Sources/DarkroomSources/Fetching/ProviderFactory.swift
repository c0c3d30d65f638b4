import DarkroomSystem

/// The thread pools a pipeline lends its providers for blocking work.
public struct ProviderPools: Sendable {
    /// For network transfers: many threads, mostly waiting.
    public var network: BlockingWorkPool
    /// For file reads and decoding large `data:` URIs.
    public var files: BlockingWorkPool

    public init(network: BlockingWorkPool, files: BlockingWorkPool) {
        self.network = network
        self.files = files
    }
}

/// How a plugin module contributes a provider: the schemes it handles, known before the provider
/// exists, and how to make it on a pipeline's pools.
public struct ProviderFactory: Sendable {
    /// Lower-case schemes.
    public var schemes: Set<String>
    public var make: @Sendable (ProviderPools) -> any DataProviding

    public init(schemes: Set<String>, make: @escaping @Sendable (ProviderPools) -> any DataProviding) {
        self.schemes = Set(schemes.map { $0.lowercased() })
        self.make = make
    }
}

extension ProviderRegistry {
    /// A registry of the providers `factories` make on `pools`; throws if two share a scheme.
    public init(_ factories: [ProviderFactory], pools: ProviderPools) throws(ProviderRegistrationError) {
        try self.init(factories.map { $0.make(pools) })
    }
}
