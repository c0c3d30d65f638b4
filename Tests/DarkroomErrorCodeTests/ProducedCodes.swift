import DarkroomAPIKeys
import DarkroomCLI
import DarkroomCache
import DarkroomChains
import DarkroomClient
import DarkroomCodecs
import DarkroomCoordinator
import DarkroomCoordinatorHTTP
import DarkroomCore
import DarkroomHTTPAPI
import DarkroomOutput
import DarkroomPipeline
import DarkroomPlugins
import DarkroomQueue
import DarkroomRedis
import DarkroomSources
import DarkroomSystem
import DarkroomWebhooks
import DarkroomWorker

/// Every code Darkroom can produce, by where it comes from: each error type's `Code.allCases`
/// (`CodedDarkroomError.producibleCodes`), the summariser's own codes and the codes drivers write
/// into job records themselves. A new error type is added here; `ErrorTypeDeclarations` fails
/// the suite when one in `Sources/` or `Plugins/` is not.
enum ProducedCodes {
    /// The error types, by name (the name is what the declaration scan finds in the sources).
    static let errorTypes: [String: any CodedDarkroomError.Type] = [
        "APIKeyError": APIKeyError.self,
        "APIError": APIError.self,
        "BitmapError": BitmapError.self,
        "CacheError": CacheError.self,
        "ChainError": ChainError.self,
        "CodecError": CodecError.self,
        "CoordinatorHTTPError": CoordinatorHTTPError.self,
        "EventLogError": EventLogError.self,
        "FileIOError": FileIOError.self,
        "JobQueueError": JobQueueError.self,
        "OutputError": OutputError.self,
        "OutputNameError": OutputNameError.self,
        "WebhookError": WebhookError.self,
        "PluginFailure": PluginFailure.self,
        "RedisError": RedisError.self,
        "RenderError": RenderError.self,
        "ResourceError": ResourceError.self,
        "SourceError": SourceError.self,
        "WorkerError": WorkerError.self,
    ]

    /// Codes that are not an error type's: what `ErrorSummary` gives errors that say none, and
    /// the codes a driver writes into a job record for failures no thrown error describes.
    static let otherSources: [String: [String]] = [
        "ErrorSummary.Code": ErrorSummary.Code.allCases.map(\.rawValue),
        // A refused enqueue's codes beside the chain's and the output name's (CLI and HTTP API).
        "EnqueueProblem.Code": EnqueueProblem.Code.allCases.map(\.rawValue),
        "JobError.DriverCode": JobError.DriverCode.allCases.map(\.rawValue),
    ]

    /// Each code with the places that produce it.
    static var all: [String: [String]] {
        var codes: [String: [String]] = [:]
        for (name, type) in errorTypes {
            for code in type.producibleCodes { codes[code, default: []].append(name) }
        }
        for (name, list) in otherSources {
            for code in list { codes[code, default: []].append(name) }
        }
        return codes
    }

    /// The families (`source` of `source.timeout`) of the dotted codes.
    static var families: Set<String> {
        Set(all.keys.compactMap { code in code.firstIndex(of: ".").map { String(code[..<$0]) } })
    }
}
