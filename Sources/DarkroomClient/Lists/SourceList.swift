import DarkroomQueue
import Foundation

/// One job as asked for: a source plus whatever a `--from` line overrides. Unset fields take the
/// command-line flags.
struct JobRequest: Sendable, Equatable {
    /// 1-based line in the `--from` file, nil for a source given as an argument.
    var line: Int?
    var source: String
    var chain: String?
    var format: String?
    var quality: Int?
    var priority: JobPriority?
    var id: String?
    var output: String?

    init(line: Int? = nil, source: String, chain: String? = nil, format: String? = nil, quality: Int? = nil,
         priority: JobPriority? = nil, id: String? = nil, output: String? = nil) {
        self.line = line
        self.source = source
        self.chain = chain
        self.format = format
        self.quality = quality
        self.priority = priority
        self.id = id
        self.output = output
    }
}

/// A mistake in the job list, tied to its place: `list.txt:12: 'quality' must be a whole number 1…100`.
struct SourceListError: Error, Sendable, Equatable, CustomStringConvertible {
    var file: String
    var line: Int?
    var message: String

    var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}

/// Reads `--from FILE`: one job per line, either a bare source or a JSON object.
///
///     # comments and blank lines are skipped
///     photos/cat.jpg
///     https://images.example.com/dog.png
///     {"source": "photos/big.jpg", "chain": "resize(200x200)", "format": "webp", "quality": 70,
///      "priority": "high", "id": "big-thumb", "output": "/shared/thumbs"}
///
/// A line is JSON when it starts with `{`. Keys: `source` (required), `chain`, `format`,
/// `quality` (1…100), `priority` (`high`/`normal`/`low`), `id`, `output`; `null` means "use the
/// flag". Any other key is an error (a typo must not silently fall back to a default). Bare lines
/// are taken verbatim except for surrounding ASCII blanks (spaces, tabs, a trailing `\r`).
enum SourceList {
    static let keys: Set<String> = ["source", "chain", "format", "quality", "priority", "id", "output"]

    /// The jobs a command was given: its source arguments, or the list in `listFile` (`-` = stdin),
    /// not both. Every bad line is reported on standard error, the last one in the thrown failure
    /// (followed by `failureSuffix`); `verb` names the command's work in "nothing to …".
    static func requests(sources: [String], listFile: String?, verb: String,
                         failureSuffix: String = "") throws(UsageFailure) -> [JobRequest] {
        switch (sources.isEmpty, listFile) {
        case (false, .some):
            throw UsageFailure("give sources or --from FILE, not both")
        case (true, nil):
            throw UsageFailure("nothing to \(verb): give one or more sources, or --from FILE (- for standard input)")
        case (false, nil):
            return sources.map { JobRequest(source: $0) }
        case (true, .some(let file)):
            let data = try read(file)
            switch parse(data, name: file == "-" ? "<stdin>" : file) {
            case .success(let requests):
                guard !requests.isEmpty else {
                    throw UsageFailure("nothing to \(verb): \(file == "-" ? "standard input" : file) lists no sources")
                }
                return requests
            case .failure(let failure):
                for error in failure.errors.dropLast() { StandardError.line("darkroom: \(error)") }
                let more = failure.truncated ? " (stopped after \(failure.errors.count) problems)" : ""
                throw UsageFailure("\(failure.errors.last.map { "\($0)" } ?? "bad list")\(more)\(failureSuffix)")
            }
        }
    }

    /// The bytes of `--from FILE` (`-`: standard input). Unreadable input — a closed or
    /// directory standard input, a missing file — is a usage failure, never a crash.
    static func read(_ file: String) throws(UsageFailure) -> Data {
        if file == "-" {
            do {
                return try FileHandle.standardInput.readToEnd() ?? Data()
            } catch {
                let reason = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { String(cString: strerror(Int32($0.code))) }
                throw UsageFailure("cannot read the job list from standard input (\(reason ?? "read error")); pipe the list in, or use --from FILE")
            }
        }
        guard let data = FileManager.default.contents(atPath: file) else { throw UsageFailure("cannot read --from file '\(file)'") }
        return data
    }

    /// Every job in `data`, or every mistake (up to `maxErrors`) with its line number.
    static func parse(_ data: Data, name: String, maxErrors: Int = 20) -> Result<[JobRequest], SourceListErrors> {
        var requests: [JobRequest] = []
        var errors: [SourceListError] = []
        var lineNumber = 0
        var start = data.startIndex
        // A UTF-8 byte-order mark (lists saved by Windows editors) is not part of the first line:
        // left in, it would turn a JSON line into a bare "source" and a path into a wrong one.
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < data.endIndex, errors.count < maxErrors {
            let end = data[start...].firstIndex(of: 0x0A) ?? data.endIndex
            lineNumber += 1
            var bytes = data[start..<end]
            start = end < data.endIndex ? end + 1 : end
            // Trimmed as bytes: Foundation's Unicode trimming costs more than the rest of a job.
            while let first = bytes.first, isBlank(first) { bytes = bytes.dropFirst() }
            while let last = bytes.last, isBlank(last) { bytes = bytes.dropLast() }
            if bytes.isEmpty || bytes.first == UInt8(ascii: "#") { continue }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                errors.append(SourceListError(file: name, line: lineNumber, message: "not valid UTF-8"))
                continue
            }
            switch parseLine(text, number: lineNumber) {
            case .skip: continue
            case .request(let request): requests.append(request)
            case .error(let message): errors.append(SourceListError(file: name, line: lineNumber, message: message))
            }
        }
        if !errors.isEmpty { return .failure(SourceListErrors(errors: errors, truncated: start < data.endIndex)) }
        return .success(requests)
    }

    enum LineOutcome: Equatable {
        case skip
        case request(JobRequest)
        case error(String)
    }

    /// Space, tab, CR, vertical tab, form feed.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// One line, already trimmed of blanks.
    static func parseLine(_ text: String, number: Int) -> LineOutcome {
        if text.isEmpty || text.hasPrefix("#") { return .skip }
        guard text.hasPrefix("{") else { return .request(JobRequest(line: number, source: text)) }
        do {
            var request = try JSONDecoder().decode(LineRecord.self, from: Data(text.utf8)).request
            request.line = number
            return .request(request)
        } catch let error as LineRecord.Problem {
            return .error(error.message)
        } catch {
            return .error("not valid JSON (a line starting with '{' is read as a JSON object): \(describe(error))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard case .dataCorrupted(let context)? = error as? DecodingError else { return "expected an object" }
        return context.underlyingError.map { "\($0)" }.map { $0.count > 120 ? String($0.prefix(119)) + "…" : $0 } ?? context.debugDescription
    }
}

/// One JSON line, read key by key so every mistake gets its own message.
private struct LineRecord: Decodable {
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
        if let unknown = container.allKeys.map(\.stringValue).filter({ !SourceList.keys.contains($0) }).sorted().first {
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
        request = JobRequest(source: source, chain: try string("chain"), format: try string("format"),
                             id: try string("id"), output: try string("output"))
        if let priority = try string("priority") {
            guard let value = JobPriority(rawValue: priority.lowercased()) else {
                throw Problem(message: "'priority' must be high, normal or low (got '\(priority.prefix(20))')")
            }
            request.priority = value
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

/// Every mistake found in a job list (parsing stops after `maxErrors`).
struct SourceListErrors: Error, Sendable, Equatable {
    var errors: [SourceListError]
    /// Parsing stopped before the end of the file.
    var truncated: Bool
}
