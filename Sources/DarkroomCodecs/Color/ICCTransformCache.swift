import DarkroomSystem
import Glibc

/// A bounded, thread-safe cache of profile → sRGB transforms, keyed by the profile's bytes.
///
/// Building a transform costs milliseconds (lcms2 parses the profile and precomputes tables),
/// while a batch of photos from one camera embeds the same profile in every file, so transforms
/// are made once and shared. Failures are cached too, so a batch of files with the same broken
/// profile does not parse it again for each. The least recently used entry is evicted once
/// `capacity` is reached; an evicted transform stays alive until the conversions using it end
/// (it is a reference-counted object).
///
/// The lock is held only for the dictionary lookup and insert, never while a transform is built:
/// two threads meeting a new profile at the same moment may both build it, and one result wins.
final class ICCTransformCache: Sendable {
    /// The process-wide cache the codecs use.
    static let shared = ICCTransformCache(capacity: 16)

    private struct Entry {
        var value: Result<ICCTransform, ICCTransformFailure>
        var lastUse: UInt64
    }

    private struct State {
        var entries: [ICCProfileKey: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The transform for `profile` and `layout`, built on first use.
    func transform(profile: [UInt8], layout: ICCPixelLayout) -> Result<ICCTransform, ICCTransformFailure> {
        let key = ICCProfileKey(bytes: profile, layout: layout)
        let cached: Result<ICCTransform, ICCTransformFailure>? = state.withLock { state in
            state.clock += 1
            guard var entry = state.entries[key] else { return nil }
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.value
        }
        if let cached { return cached }
        let made = ICCTransform.make(profile: profile, layout: layout)
        state.withLock { state in
            state.clock += 1
            if state.entries[key] == nil && state.entries.count >= capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.entries.removeValue(forKey: oldest)
            }
            state.entries[key] = Entry(value: made, lastUse: state.clock)
        }
        return made
    }

    /// How many transforms are cached (for tests).
    var count: Int { state.withLock { $0.entries.count } }
}

/// A profile's bytes plus the pixel layout.
///
/// The hash reads only the length, the first 1 KiB (the 128-byte header with its size, date and
/// MD5 profile ID, then the tag table) and the last 256 bytes, so a lookup stays cheap for the
/// half-megabyte CMYK profiles presses use; equality still compares every byte.
private struct ICCProfileKey: Hashable, Sendable {
    let bytes: [UInt8]
    let layout: ICCPixelLayout

    func hash(into hasher: inout Hasher) {
        hasher.combine(layout)
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { raw in
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.prefix(1024)))
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.suffix(256)))
        }
    }

    static func == (a: ICCProfileKey, b: ICCProfileKey) -> Bool {
        a.layout == b.layout && a.bytes.count == b.bytes.count
            && a.bytes.withUnsafeBytes { x in
                b.bytes.withUnsafeBytes { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
            }
    }
}
