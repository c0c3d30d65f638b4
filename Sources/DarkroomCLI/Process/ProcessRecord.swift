import DarkroomPipeline

/// One line of `darkroom process --json`: the outcome for one input.
struct ProcessRecord: Codable, Sendable {
    struct Source: Codable, Sendable {
        var format: String
        var width: Int
        var height: Int
        var frames: Int
        /// Where the source bytes came from: `network`, `disk` (the original cache), `memory`, `local`.
        var origin: String?
    }

    struct Milliseconds: Codable, Sendable {
        var fetch: Double
        var decode: Double
        var process: Double
        var encode: Double
        var store: Double
        var total: Double
    }

    struct Failure: Codable, Sendable {
        var code: String
        var message: String
    }

    var input: String
    var ok: Bool
    var output: String?
    var format: String?
    var width: Int?
    var height: Int?
    var bytes: Int?
    /// Whether the result came from a cache: `memory`, `disk` or `miss`.
    var cache: String?
    var ms: Milliseconds?
    var source: Source?
    /// True when the source was animated and only its first frame was processed (nil for a cached
    /// result, whose source was not decoded).
    var firstFrameOnly: Bool?
    var error: Failure?
}
