import Foundation

/// The `darkroom` executable SwiftPM built for this test run, for tests that run it as a real
/// process (exit codes, signals, several workers on one Redis), and the test tools and plugin
/// libraries built beside it.
public enum DarkroomBinary {
    /// The path of the `darkroom` binary next to the running test bundle.
    public static var path: String {
        get throws { try path(named: "darkroom") }
    }

    /// The path of the executable `name` (`darkroom`, `darkroom-cache-stress`) or shared library
    /// (`libDarkroomExampleSwiftPlugin.so`, which the linker makes executable too) next to the
    /// running test bundle (searched upwards, since on macOS the test binary sits inside an
    /// `.xctest` bundle). On Linux the test binary is `.build/<triple>/debug/DarkroomPackageTests.xctest`,
    /// so this is SwiftPM's products directory, what `swift build --show-bin-path` prints.
    public static func path(named name: String) throws -> String {
        let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: selfPath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw Missing(description: "no \(name) binary next to \(selfPath); run `swift build --build-tests` first")
    }

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }
}
