import DarkroomPipeline

/// One line of `darkroom process --json`: the outcome for one input.
struct ProcessRecord: Codable, Sendable {
    struct Source: Codable, Sendable {
        var format: String
        var width: Int
        var height: Int
        var frames: Int
    }

    struct Milliseconds: Codable, Sendable {
        var decode: Double
        var process: Double
        var encode: Double
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
    var ms: Milliseconds?
    var source: Source?
    /// True when the source was animated and only its first frame was processed.
    var firstFrameOnly: Bool?
    var error: Failure?
}
