import DarkroomFuzzTargets
import Foundation

#if FUZZING
// Built by scripts/fuzz.sh with `--sanitize=fuzzer` and `-D FUZZING`: libFuzzer's own `main`
// calls this for every input. The target is chosen by $DARKROOM_FUZZ_TARGET.
private let selected: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["DARKROOM_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.named(name) else {
        FuzzFailure.stop("runner", "set DARKROOM_FUZZ_TARGET to one of: \(FuzzTarget.all.map(\.name).joined(separator: ", "))")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    selected.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
/// Without the fuzzer: `darkroom-fuzz TARGET FILE…` runs the files through a target once each
/// (reproducing a finding), and `darkroom-fuzz list` names the targets.
@main
struct FuzzRunner {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let first = arguments.first, first != "list" else {
            for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
            return
        }
        guard let target = FuzzTarget.named(first) else {
            FuzzFailure.stop("runner", "no target \(first); `darkroom-fuzz list` names them")
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FuzzFailure.stop("runner", "cannot read \(path)")
            }
            data.withUnsafeBytes { target.run($0) }
            print("\(target.name): \(path) ok")
        }
    }
}
#endif
