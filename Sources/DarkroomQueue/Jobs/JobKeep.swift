/// The rules of a job record's `keep` list (what the output keeps of the source).
///
/// The queue only checks the record's shape; `MetadataKeep` (DarkroomCodecs) gives each item its
/// meaning. The two name lists are held equal by a test, since the queue target does not link
/// the codecs.
public enum JobKeep {
    /// Every item, sorted: the source's ICC profile (`icc`), EXIF (`exif`), XMP (`xmp`), its
    /// copyright and artist only (`copyright`), and GPS inside EXIF or XMP (`gps`).
    public static let items: [String] = ["copyright", "exif", "gps", "icc", "xmp"]

    /// The canonical form of a list: sorted, without duplicates, nil when empty.
    public static func canonical<S: Sequence<String>>(_ names: S) -> [String]? {
        let sorted = Set(names).sorted()
        return sorted.isEmpty ? nil : sorted
    }

    /// Why a keep list cannot be used, for a person.
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
    }

    /// `names` in canonical form (nil when empty), or why they are not a keep list.
    public static func checked<S: Sequence<String>>(_ names: S) throws(Problem) -> [String]? {
        let keep = canonical(names)
        if let problem = problem(keep) { throw Problem(message: problem) }
        return keep
    }

    /// What `keep` breaks, or nil when it is absent or a canonical list of known items.
    static func problem(_ keep: [String]?) -> String? {
        guard let keep else { return nil }
        if keep.isEmpty { return "'keep' must be absent rather than empty" }
        if let unknown = keep.first(where: { !items.contains($0) }) {
            return "'keep' has '\(unknown.prefix(64))'; the items are \(items.joined(separator: ", "))"
        }
        if keep != keep.sorted() || Set(keep).count != keep.count { return "'keep' must be sorted and without duplicates" }
        if keep.contains("gps") && !keep.contains("exif") && !keep.contains("xmp") {
            return "'keep' has gps without exif or xmp, which carry it"
        }
        return nil
    }
}
