import DarkroomCore
import DarkroomSources
import DarkroomSystem

/// The providers every pipeline has: HTTP(S) through libcurl, local files and `data:` URIs.
public enum StandardProviders {
    /// A registry with the standard providers; HTTP transfers block threads of `networkPool`,
    /// file reads and large `data:` decodes threads of `filePool`.
    public static func registry(networkPool: BlockingWorkPool, filePool: BlockingWorkPool) -> ProviderRegistry {
        var registry = ProviderRegistry()
        // The three schemes sets are disjoint, so registration cannot fail.
        try! registry.register(HTTPProvider(pool: networkPool))
        try! registry.register(FileProvider(pool: filePool))
        try! registry.register(DataURIProvider(pool: filePool))
        return registry
    }
}
