import DarkroomQueue
import Foundation

/// One JSON line, read key by key so every mistake gets its own message.
struct LineRecord: Decodable {
    struct Problem: Error { var message: String }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var request: JobRequest

    init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<Key>
        do { container = try decoder.container(keyedBy: Key.self) } catch { throw Problem(message: "expected a JSON object") }
        // A caller that reads more keys from the same object (an HTTP API's `batch`) names them.
        let extra = decoder.userInfo[JobRequestJSON.otherKeys] as? Set<String> ?? []
        if let unknown = container.allKeys.map(\.stringValue).filter({ !SourceList.keys.contains($0) && !extra.contains($0) }).sorted().first {
            throw Problem(message: "unknown key '\(unknown.prefix(40))'; the keys are \(SourceList.keys.sorted().joined(separator: ", "))")
        }
        func string(_ key: String) throws(Problem) -> String? {
            let value: String?
            do { value = try container.decodeIfPresent(String.self, forKey: Key(stringValue: key)) } catch {
                throw Problem(message: "'\(key)' must be a string")
            }
            if let value, value.isEmpty { throw Problem(message: "'\(key)' is empty; leave it out to use the flag") }
            return value
        }
        guard let source = try string("source") else { throw Problem(message: "missing \"source\"") }
        request = JobRequest(
            source: source, chain: try string("chain"), format: try string("format"),
            id: try string("id"), output: try string("output"), name: try string("name"))
        request.webhook = try string("webhook")
        if let priority = try string("priority") {
            guard let value = JobPriority(rawValue: priority.lowercased()) else {
                throw Problem(message: "'priority' must be high, normal or low (got '\(priority.prefix(20))')")
            }
            request.priority = value
        }
        let metadata: JobMetadata.Value?
        do { metadata = try container.decodeIfPresent(JobMetadata.Value.self, forKey: Key(stringValue: "metadata")) } catch {
            throw Problem(message: "'metadata' must be a JSON object")
        }
        if let metadata {
            switch JobMetadata.canonicalText(metadata) {
            case .success(let text): request.metadata = text
            case .failure(let problem): throw Problem(message: problem.message)
            }
        }
        do {
            if let keep = try container.decodeIfPresent([String].self, forKey: Key(stringValue: "keep")) {
                request.keep = try JobKeep.checked(keep)
            }
        } catch let problem as JobKeep.Problem {
            throw Problem(message: problem.message)
        } catch {
            throw Problem(message: "'keep' must be a list of strings, such as [\"icc\", \"exif\"]")
        }
        do {
            if let placeholders = try container.decodeIfPresent([String].self, forKey: Key(stringValue: "placeholders")) {
                request.placeholders = try JobPlaceholders.checked(placeholders)
            }
        } catch let problem as JobPlaceholders.Problem {
            throw Problem(message: problem.message)
        } catch {
            throw Problem(message: "'placeholders' must be a list of strings, such as [\"blurhash\", \"color\"]")
        }
        do {
            request.renditions = try container.decodeIfPresent([JobRendition].self, forKey: Key(stringValue: "renditions"))
        } catch {
            throw Problem(message: "'renditions' must be a list of objects with keys name, chain, format, quality")
        }
        if let renditions = request.renditions, renditions.isEmpty { throw Problem(message: "'renditions' is empty; leave it out") }
        do {
            request.firstFrameOnly = try container.decodeIfPresent(Bool.self, forKey: Key(stringValue: "firstFrameOnly"))
        } catch {
            throw Problem(message: "'firstFrameOnly' must be true or false")
        }
        do {
            if let quality = try container.decodeIfPresent(Int.self, forKey: Key(stringValue: "quality")) {
                guard (1...100).contains(quality) else { throw Problem(message: "'quality' must be 1…100 (got \(quality))") }
                request.quality = quality
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(message: "'quality' must be a whole number 1…100")
        }
    }
}
