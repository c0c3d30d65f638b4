import DarkroomQueue
import Foundation

/// Reads a job list (`enqueue --from FILE`, `run --from FILE`): one job per line, either a bare
/// source or a JSON object.
///
///     # comments and blank lines are skipped
///     photos/cat.jpg
///     https://images.example.com/dog.png
///     {"source": "photos/big.jpg", "chain": "resize(200x200)", "format": "webp", "quality": 70,
///      "priority": "high", "id": "big-thumb", "output": "/shared/thumbs", "name": "{stem}-big.{ext}"}
///
/// A line is JSON when it starts with `{`. Keys: `source` (required), `chain`, `format`,
/// `quality` (1…100), `priority` (`high`/`normal`/`low`), `id`, `output`, `firstFrameOnly`
/// (`true`/`false`), `name` (an output-name template), `metadata` (a JSON object, `JobMetadata`),
/// `webhook` (an endpoint name), `keep` (a list of `copyright`, `exif`, `gps`, `icc`, `xmp`),
/// `placeholders` (a list of `blurhash`, `color`, `thumbhash`);
/// `null` means "use the
/// flag". Any other key is an error (a typo must not silently fall back to a default). Bare lines
/// are taken verbatim except for surrounding ASCII blanks (spaces, tabs, a trailing `\r`).
public enum SourceList {
    /// The keys a JSON line may have.
    public static let keys: Set<String> = [
        "source", "chain", "format", "quality", "priority", "id", "output", "firstFrameOnly", "name", "metadata", "webhook", "keep",
        "renditions", "placeholders",
    ]

    /// The bytes of a job list: the file at `file`, or standard input for `-`. Unreadable input —
    /// a closed or directory standard input, a missing file — is an error, never a crash.
    public static func read(_ file: String) throws(SourceListReadFailure) -> Data {
        if file == "-" {
            do {
                return try FileHandle.standardInput.readToEnd() ?? Data()
            } catch {
                let reason = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { String(cString: strerror(Int32($0.code))) }
                throw .standardInput(reason: reason)
            }
        }
        guard let data = FileManager.default.contents(atPath: file) else { throw .file(file) }
        return data
    }

    /// Every job in `data`, or every mistake (up to `maxErrors`) with its line number.
    public static func parse(_ data: Data, name: String, maxErrors: Int = 20) -> Result<[JobRequest], SourceListErrors> {
        // Lines are found and trimmed in the buffer itself: `Data`'s generic `firstIndex(of:)`
        // and slicing cost a bulk enqueue more than the rest of reading a line.
        data.withUnsafeBytes { raw in parse(raw.bindMemory(to: UInt8.self), name: name, maxErrors: maxErrors) }
    }

    private static func parse(_ data: UnsafeBufferPointer<UInt8>, name: String, maxErrors: Int) -> Result<[JobRequest], SourceListErrors> {
        var requests: [JobRequest] = []
        var errors: [SourceListError] = []
        var lineNumber = 0
        var start = 0
        // A UTF-8 byte-order mark (lists saved by Windows editors) is not part of the first line:
        // left in, it would turn a JSON line into a bare "source" and a path into a wrong one.
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < data.count, errors.count < maxErrors {
            let end = nextNewline(in: data, from: start)
            lineNumber += 1
            var first = start
            var last = end
            start = end < data.count ? end + 1 : end
            // Trimmed as bytes: Foundation's Unicode trimming costs more than the rest of a job.
            while first < last, isBlank(data[first]) { first += 1 }
            while last > first, isBlank(data[last - 1]) { last -= 1 }
            if first == last || data[first] == UInt8(ascii: "#") { continue }
            guard let text = String(validating: data[first..<last], as: UTF8.self) else {
                errors.append(SourceListError(file: name, line: lineNumber, message: "not valid UTF-8"))
                continue
            }
            switch parseLine(text, number: lineNumber) {
            case .skip: continue
            case .request(let request): requests.append(request)
            case .error(let message): errors.append(SourceListError(file: name, line: lineNumber, message: message))
            }
        }
        if !errors.isEmpty { return .failure(SourceListErrors(errors: errors, truncated: start < data.count)) }
        return .success(requests)
    }

    /// The offset of the first newline at or after `start`, or the end of `data`.
    private static func nextNewline(in data: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = data.baseAddress, let found = memchr(base + start, 0x0A, data.count - start) else { return data.count }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
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
