import Foundation

/// One parser of untrusted bytes under the fuzzer. `run` must end, for any input, in a result or
/// the parser's own typed error; it stops the process (`FuzzFailure.stop`) when a property the
/// parser promises does not hold. A crash, a hang or a memory blow-up is a finding too; libFuzzer
/// and AddressSanitizer report those.
public struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz.sh` and `DARKROOM_FUZZ_TARGET` use, and the corpus directory's.
    public let name: String
    /// What the target feeds and what it checks, for `scripts/fuzz.sh list`.
    public let summary: String
    public let run: @Sendable (UnsafeRawBufferPointer) -> Void

    public init(name: String, summary: String, run: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        self.name = name
        self.summary = summary
        self.run = run
    }

    /// Every target, by name.
    public static let all: [FuzzTarget] = [
        ImageDecodingFuzz.target, AnimationFuzz.target, ChainFuzz.target, JobRecordFuzz.target, DataURIFuzz.target,
        TextParsersFuzz.target, AddressPolicyFuzz.target, AllowListFuzz.target, JobListFuzz.target,
        CacheEntryNameFuzz.target, RedisReplyFuzz.target, PluginDescriptorFuzz.target, HEICHeaderFuzz.target,
        MetadataRewritingFuzz.target,
        AVIFHeaderFuzz.target, S3XMLFuzz.target,
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// A broken promise found by a target: printed, then the process aborts so libFuzzer saves the input.
public enum FuzzFailure {
    public static func stop(_ target: String, _ message: String) -> Never {
        FileHandle.standardError.write(Data("darkroom-fuzz \(target): \(message)\n".utf8))
        abort()
    }
}
