import DarkroomSystem

/// The providers every pipeline has: HTTP(S) through libcurl, local files and `data:` URIs. They
/// are the built-in `standard-providers` plugin module (`Plugins/StandardProviders`).
public enum StandardProviders {
    /// HTTP transfers block threads of the network pool; file reads and large `data:` decodes
    /// threads of the file pool.
    public static let factories: [ProviderFactory] = [
        ProviderFactory(schemes: ["http", "https"]) { HTTPProvider(pool: $0.network) },
        ProviderFactory(schemes: ["file"]) { FileProvider(pool: $0.files) },
        ProviderFactory(schemes: ["data"]) { DataURIProvider(pool: $0.files) },
    ]
}
