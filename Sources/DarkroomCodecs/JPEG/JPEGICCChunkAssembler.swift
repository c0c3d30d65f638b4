/// An ICC profile embedded in a JPEG, as found in its APP2 segments.
enum JPEGICCProfile: Sendable, Equatable {
    /// No `ICC_PROFILE` segment.
    case absent
    /// Every chunk present once, joined in sequence order.
    case complete([UInt8])
    /// Chunks that cannot form a profile (missing, repeated, inconsistent counts); why, for a person.
    case malformed(String)

    /// True when the file carries a profile, usable or not.
    var isPresent: Bool {
        if case .absent = self { return false }
        return true
    }
}

/// Collects `ICC_PROFILE` APP2 chunks and joins them by sequence number.
///
/// A profile larger than one segment is split into chunks, each starting with
/// `ICC_PROFILE\0`, a 1-based sequence number and the chunk count. Writers are supposed to emit
/// them in order but readers must not rely on it, so chunks are placed by number; any nonsense
/// (sequence 0, a number above the count, counts that disagree, a chunk twice or missing) makes
/// the whole profile malformed rather than silently producing a spliced one.
struct JPEGICCChunkAssembler {
    private var chunks: [(sequence: Int, bytes: ArraySlice<UInt8>)] = []
    private var declaredCount: Int?
    private var problem: String?

    /// `ICC_PROFILE\0`.
    private static let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// Offers one APP2 payload; payloads that are not ICC chunks (FlashPix, MPF) are ignored.
    mutating func add(segment payload: UnsafeBufferPointer<UInt8>) {
        let headerLength = Self.signature.count + 2
        guard payload.count >= headerLength,
            Self.signature.withUnsafeBufferPointer({ $0.elementsEqual(payload.prefix(Self.signature.count)) })
        else { return }
        guard problem == nil else { return }
        let sequence = Int(payload[Self.signature.count])
        let count = Int(payload[Self.signature.count + 1])
        if let declaredCount, declaredCount != count {
            problem = "ICC profile chunks disagree on their count (\(declaredCount) and \(count))"
            return
        }
        declaredCount = count
        guard sequence >= 1, sequence <= count else {
            problem = "ICC profile chunk number \(sequence) is outside 1…\(count)"
            return
        }
        guard !chunks.contains(where: { $0.sequence == sequence }) else {
            problem = "ICC profile chunk \(sequence) appears twice"
            return
        }
        chunks.append((sequence, ArraySlice(UnsafeBufferPointer(rebasing: payload[headerLength...]))))
    }

    /// The profile, once all chunks have been offered.
    func profile() -> JPEGICCProfile {
        if let problem { return .malformed(problem) }
        guard let declaredCount else { return .absent }
        guard chunks.count == declaredCount else {
            return .malformed("ICC profile has \(chunks.count) of its \(declaredCount) chunks")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(chunks.reduce(0) { $0 + $1.bytes.count })
        for chunk in chunks.sorted(by: { $0.sequence < $1.sequence }) {
            bytes.append(contentsOf: chunk.bytes)
        }
        guard !bytes.isEmpty else { return .malformed("ICC profile chunks are empty") }
        return .complete(bytes)
    }
}
