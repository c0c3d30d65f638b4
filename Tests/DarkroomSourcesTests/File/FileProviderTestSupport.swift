import DarkroomCore
import DarkroomSystem
import Foundation
import Glibc
import Testing

@testable import DarkroomSources

/// A fresh, real temporary directory per test (resolved, so expectations can compare paths).
final class SourcesFileSandbox {
    let path: String

    init() throws {
        var template = Array("/tmp/darkroom-sources-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        let created = try #require(made.map { String(cString: $0) })
        path = try #require(
            realpath(created, nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            })
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path` + `/` + `relative`.
    func url(_ relative: String) -> String { "\(path)/\(relative)" }

    @discardableResult
    func directory(_ relative: String) throws -> String {
        try FileManager.default.createDirectory(atPath: url(relative), withIntermediateDirectories: true)
        return url(relative)
    }

    @discardableResult
    func file(_ relative: String, bytes: [UInt8]) throws -> String {
        let full = url(relative)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    @discardableResult
    func symlink(_ relative: String, to target: String) throws -> String {
        try FileManager.default.createSymbolicLink(atPath: url(relative), withDestinationPath: target)
        return url(relative)
    }

    @discardableResult
    func fifo(_ relative: String) throws -> String {
        let full = url(relative)
        try #require(mkfifo(full, 0o644) == 0, "mkfifo failed: \(errno)")
        return full
    }
}

enum SourcesFileTestSupport {
    static let pool = BlockingWorkPool(threadCount: 2)
    static let provider = FileProvider(pool: pool)
    static let sample: [UInt8] = Array("not really a JPEG, but bytes are bytes\n".utf8)

    static func policy(roots: [String]?, maxBytes: Int = 50 << 20) -> SourcePolicy {
        var policy = SourcePolicy()
        policy.fileRoots = roots
        policy.maxBytes = maxBytes
        return policy
    }

    static func fetch(_ source: String, policy: SourcePolicy) async throws -> FetchedSource {
        try await provider.fetch(SourceReference(source), policy: policy)
    }

    /// The error fetching `source` fails with; records an issue if it succeeds.
    static func failure(_ source: String, policy: SourcePolicy) async throws -> SourceError {
        let result: Result<FetchedSource, SourceError>
        do throws(SourceError) {
            result = .success(try await provider.fetch(SourceReference(source), policy: policy))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .failure(let error):
            return error
        case .success(let fetched):
            Issue.record("expected \(source) to fail, got \(fetched.bytes.count) bytes")
            throw SourceError(.invalid, source: source, "unexpected success")
        }
    }
}
