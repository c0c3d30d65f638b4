import Foundation

/// Runs a program to completion (killed after `timeout`), off the cooperative thread pool.
enum ChildProcess {
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 60) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runBlocking(arguments, stdin: stdin, timeout: timeout) })
            }
        }
    }

    /// Whether `path` is an executable file.
    static func exists(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    private static func runBlocking(_ arguments: [String], stdin: String?, timeout: TimeInterval) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes while the child runs, so a full pipe never blocks it.
        let group = DispatchGroup()
        // Each is written by one reader before its `leave()` and read only after `wait()`: the
        // group orders the two, so there is no concurrent access.
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = output.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        process.waitUntilExit()
        killer.cancel()
        group.wait()
        return Outcome(
            status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
            errors: String(decoding: errData, as: UTF8.self))
    }
}
