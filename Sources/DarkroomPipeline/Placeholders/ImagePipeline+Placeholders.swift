import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomSystem

/// Placeholders (docs/placeholders.md) beside cached results: a render that asks for them stores
/// every kind in a small entry of the results area (`PlaceholderRecord`), keyed by the result's
/// key, so a cache hit answers with them without decoding its image.
extension ImagePipeline {
    /// `result` with the placeholders `request` asks for: the render's own, else those stored
    /// beside the cached result, else computed from the cached output decoded once (an entry
    /// written before placeholders were asked for, or whose record was evicted) and stored for
    /// the next hit. A request that asks for none is returned as it is.
    func withPlaceholders(_ result: ImageResult, for request: ImageRequest, resultKey: String) async throws -> ImageResult {
        let kinds = request.output.placeholders
        guard !kinds.isEmpty else { return result }
        var result = result
        if let own = result.placeholders, kinds.isSubset(of: own.kinds) {
            result.placeholders = own.restricted(to: kinds)
            return result
        }
        if let stored = try await storedPlaceholders(resultKey: resultKey), kinds.isSubset(of: stored.kinds) {
            result.placeholders = stored.restricted(to: kinds)
            return result
        }
        let clock = ContinuousClock()
        let start = clock.now
        let bytes = result.bytes
        let name = result.cachePath ?? "cached result"
        let renderer = self.renderer
        let computed = try await cpuPool.run {
            let decoded = try renderer.coders.decode(
                EncodedImage(bytes: bytes, sourceName: name), options: renderer.limits.decodeOptions())
            return try decoded.bitmap.placeholders(Set(PlaceholderKind.allCases))
        }
        result.timings.add((clock.now - start).inMilliseconds, to: \.decode)
        try await storePlaceholders(computed, resultKey: resultKey)
        result.placeholders = computed.restricted(to: kinds)
        return result
    }

    /// Each rendition's result with its placeholders (`withPlaceholders`), from beside its cached
    /// result or from its output decoded once (renditions are rendered without them); a rendition
    /// whose placeholders cannot be made fails alone.
    func withPlaceholders(
        _ results: [Result<ImageResult, any Error>], for requests: [ImageRequest], keys: [String]
    ) async -> [Result<ImageResult, any Error>] {
        var completed = results
        for index in results.indices where !requests[index].output.placeholders.isEmpty {
            guard case .success(let result) = results[index] else { continue }
            do {
                completed[index] = .success(try await withPlaceholders(result, for: requests[index], resultKey: keys[index]))
            } catch {
                completed[index] = .failure(error)
            }
        }
        return completed
    }

    /// Stores `placeholders` beside the result cached under `resultKey`, in the disk cache (when
    /// there is one) and the memory cache.
    func storePlaceholders(_ placeholders: Placeholders, resultKey: String) async throws {
        let record = PlaceholderRecord.bytes(placeholders)
        let key = PlaceholderRecord.key(resultKey: resultKey)
        if let disk = configuration.diskCache {
            try await ioPool.run { try disk.store(record, for: key, in: .results) }
        }
        memory?.set(record, for: "p:" + key, cost: record.count)
    }

    /// The placeholders stored beside the result cached under `resultKey`, or nil.
    func storedPlaceholders(resultKey: String) async throws -> Placeholders? {
        let key = PlaceholderRecord.key(resultKey: resultKey)
        if let record = memory?.value(for: "p:" + key) { return PlaceholderRecord.parse(record) }
        guard let disk = configuration.diskCache else { return nil }
        guard let record = try await ioPool.run({ try disk.data(for: key, in: .results) }) else { return nil }
        memory?.set(record, for: "p:" + key, cost: record.count)
        return PlaceholderRecord.parse(record)
    }
}

/// The entry placeholders are stored in beside a cached result: a line `KIND=VALUE` per kind
/// (split at the first `=`: ThumbHash's base64 may end in `=`), under the result's key with
/// `#placeholders-1` appended.
enum PlaceholderRecord {
    /// The entry's key; the suffix names the record's version, so a change of the computation
    /// (thumbnail size, components) changes it and old records are simply not found.
    static func key(resultKey: String) -> String { resultKey + "#placeholders-1" }

    static func bytes(_ placeholders: Placeholders) -> [UInt8] {
        Array(
            PlaceholderKind.allCases.compactMap { kind in placeholders[kind].map { "\(kind.rawValue)=\($0)\n" } }.joined().utf8)
    }

    /// The placeholders of a record; nil for one that is not well formed (damaged: recomputed).
    static func parse(_ bytes: [UInt8]) -> Placeholders? {
        var found = Placeholders()
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")),
                let kind = PlaceholderKind(rawValue: String(decoding: line[line.startIndex..<equals], as: UTF8.self))
            else { return nil }
            found[kind] = String(decoding: line[(equals + 1)...], as: UTF8.self)
        }
        return found.isEmpty ? nil : found
    }
}
