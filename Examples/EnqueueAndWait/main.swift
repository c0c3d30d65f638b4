// darkroom-example-client: a program that uses a Darkroom fleet through the client library alone.
//
//     darkroom-example-client [--redis URL] [--timeout SECONDS] BATCH CHAIN SOURCE…
//
// It checks and enqueues one job per source into BATCH, each processed by CHAIN (checked and
// made canonical here, exactly as a worker would), waits until every job has ended, and prints
// the outcome. It links DarkroomClient and DarkroomRedis only: no pixels, no codecs, no libcurl
// (docs/client-library.md; ClientTargetClosureTests checks both).

import DarkroomClient
import DarkroomRedis
import Foundation
import Glibc

/// One line to file descriptor 2 (the C `stderr` global is not concurrency-safe in Swift 6).
func report(_ text: String) {
    var bytes = Array("darkroom-example-client: \(text)\n".utf8)
    bytes.withUnsafeMutableBytes { _ = write(2, $0.baseAddress, $0.count) }
}

let usage = "usage: darkroom-example-client [--redis URL] [--timeout SECONDS] BATCH CHAIN SOURCE…"
var arguments = Array(CommandLine.arguments.dropFirst())
var redisArgument: String?
var timeout: Duration = .seconds(600)
while let flag = arguments.first, flag.hasPrefix("--") {
    arguments.removeFirst()
    guard !arguments.isEmpty else {
        report("\(flag) needs a value; \(usage)")
        exit(2)
    }
    let value = arguments.removeFirst()
    switch flag {
    case "--redis": redisArgument = value
    case "--timeout":
        guard let seconds = Int(value), seconds > 0 else {
            report("--timeout must be a whole number of seconds > 0")
            exit(2)
        }
        timeout = .seconds(seconds)
    default:
        report("unknown option \(flag); \(usage)")
        exit(2)
    }
}
guard arguments.count >= 3 else {
    report(usage)
    exit(2)
}
let (batch, chain, sources) = (arguments[0], arguments[1], Array(arguments[2...]))

let url: RedisURL
do {
    // --redis, else DARKROOM_REDIS_URL, else redis://127.0.0.1:6379, as `darkroom` resolves it.
    url = try RedisURL.resolve(argument: redisArgument, environment: ProcessInfo.processInfo.environment)
} catch {
    report("\(error)")
    exit(2)
}
let queue = RedisStreamsQueue(client: RedisClient(url: url, connections: 2, dedicatedConnections: 1))
let client = FleetClient(queue: queue)
let defaults = EnqueueDefaults(chain: chain, batch: batch, workingDirectory: FileManager.default.currentDirectoryPath)

do {
    let receipt = try await client.enqueue(sources.map { JobRequest(source: $0) }, defaults: defaults)
    for note in receipt.notes { report(note) }
    print("enqueued \(receipt.added) of \(receipt.jobs.count) jobs into \(batch) with \(receipt.jobs[0].chain)")
    guard let result = try await client.wait(for: batch, timeout: timeout, onNote: { report($0) }) else {
        report("batch \(batch) is unknown to the queue")
        exit(1)
    }
    let progress = result.progress
    print("\(batch): \(progress.succeeded) succeeded, \(progress.failed) failed, \(progress.dead) dead, \(progress.cancelled) cancelled")
    for failure in result.failures {
        print("  \(failure.job): \(failure.code ?? failure.type) \(failure.message ?? "")")
    }
    if result.timedOut { report("timed out with \(progress.remaining) jobs left") }
    exit(progress.allSucceeded ? 0 : 1)
} catch let refusal as EnqueueRefusal {
    for problem in refusal.problems {
        // The planner names the batch's chain `-p`, after the CLI's flag; here it is CHAIN.
        let place = problem.location.map { $0 == "-p" ? "CHAIN" : $0 }
        report((place.map { "\($0): " } ?? "") + problem.message)
        problem.detail.forEach(report)
    }
    report("nothing was enqueued")
    exit(2)
} catch {
    report("\(error)")
    exit(1)
}
