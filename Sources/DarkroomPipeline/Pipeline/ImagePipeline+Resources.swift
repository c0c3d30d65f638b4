import DarkroomCodecs
import DarkroomCore
import DarkroomSources
import DarkroomSystem

extension ImagePipeline {
    /// The decoded resources `chain` declares (a watermark's image), fetched before it runs.
    ///
    /// Each goes the way a job's source goes — the providers, the source policy, the byte and
    /// pixel limits, the originals cache (memory, then the shared disk, downloaded once across
    /// the fleet under the lease `source:<key>`) — with its version in its original's key, so a
    /// new version is downloaded afresh. Failures keep the source's own errors (`source.*`,
    /// `image.*`), naming its address. Its pixels are capped at `ResolvedResources.maxPixels`,
    /// checked from the header before decoding.
    func resolveResources(for chain: ProcessorChain) async throws -> ResolvedResources {
        var resolved = ResolvedResources()
        for reference in chain.resources {
            resolved[reference] = try await resource(reference)
        }
        return resolved
    }

    /// One resource, fetched (or found in a cache) and decoded.
    private func resource(_ reference: ResourceReference) async throws -> Bitmap {
        let source = SourceReference(reference.source)
        let (key, prefetched) = try await keyedSource(source)
        let sourceKey = Self.resourceKey(sourceKey: key, version: reference.version)
        let (bytes, _) = try await original(for: source, sourceKey: sourceKey, prefetched: prefetched)
        let coders = configuration.coders
        let limits = configuration.limits
        return try await cpuPool.run {
            let encoded = EncodedImage(bytes: bytes, sourceName: "watermark \(reference.source)")
            let size = try coders.readInfo(encoded).uprightSize
            guard size.area <= ResolvedResources.maxPixels else {
                throw ResourceError.tooLarge(reference, size: size, limit: ResolvedResources.maxPixels)
            }
            return try coders.decode(encoded, options: limits.decodeOptions()).bitmap
        }
    }

    /// A resource's original's cache key: its source key and version. Version 1 keeps the plain
    /// source key, so a watermark that is also some job's source shares that job's original.
    static func resourceKey(sourceKey: String, version: Int) -> String {
        version == 1 ? sourceKey : sourceKey + "#v\(version)"
    }
}
