import DarkroomSources
import Glibc

/// The order `process` and `run` start their images in: the most expensive first, so the longest
/// one does not start last and leave the other cores idle at the end.
///
/// The expected cost is what can be known without reading an image: a local file's size (a
/// 16 MB progressive JPEG costs far more than a 200 KB one; stat is free next to decoding), and a
/// `data:` URI's length. A network source's size is unknown until it is fetched, and most of its
/// time is spent waiting, so network sources start first, in the order given. Equal costs keep
/// the order given, so a list of similar files runs as listed.
enum LargestFirst {
    /// What is known of a source's cost before it is read.
    enum Cost: Comparable {
        /// Fetched over the network: unknown, and mostly waiting.
        case network
        /// Bytes to decode (file size, or a `data:` URI's length).
        case bytes(Int)

        /// Network first, then larger before smaller.
        static func < (lhs: Cost, rhs: Cost) -> Bool {
            switch (lhs, rhs) {
            case (.network, .network): false
            case (.network, .bytes): true
            case (.bytes, .network): false
            case (.bytes(let left), .bytes(let right)): left > right
            }
        }
    }

    /// `items` in start order; `source` gives each item's source as typed or resolved (a path,
    /// `file://` URL, `data:` URI or network URL) and `workingDirectory` resolves relative paths.
    static func ordered<Item>(_ items: [Item], workingDirectory: String, source: (Item) -> String) -> [Item] {
        let costs = items.map { cost(of: source($0), workingDirectory: workingDirectory) }
        // A stable sort: indices break ties.
        return items.indices.sorted { left, right in
            costs[left] == costs[right] ? left < right : costs[left] < costs[right]
        }.map { items[$0] }
    }

    /// The expected cost of one source. A file that cannot be stat'ed (missing, say) costs 0 and
    /// starts last, where it fails quickly without holding up the others.
    static func cost(of source: String, workingDirectory: String) -> Cost {
        let lowered = source.prefix(8).lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("s3://") { return .network }
        if lowered.hasPrefix("data:") { return .bytes(source.utf8.count) }
        var path = source
        if lowered.hasPrefix("file://") { path = percentDecoded(String(source.dropFirst("file://".count))) ?? "" }
        if !path.hasPrefix("/") { path = workingDirectory + "/" + path }
        var status = stat()
        guard stat(path, &status) == 0 else { return .bytes(0) }
        return .bytes(Int(status.st_size))
    }
}
