import DarkroomQueue
import Foundation

/// Calling the driver's Lua scripts (`StreamScripts`): arguments as bytes, one call, or many
/// calls of one script pipelined on one connection.
extension RedisStreamsQueue {
    /// Runs a script with binary-safe arguments (job records are bytes as queued).
    func eval(_ script: RedisScript, keys: [String], arguments: ScriptArguments) async throws -> RedisReply {
        let keyBytes = keys.map { Array($0.utf8) }
        let values = arguments.values
        return try await client.withConnection { connection throws(RedisError) in
            try connection.evalsha(script, keys: keyBytes, arguments: values)
        }
    }

    /// Runs `script` once per argument list, all pipelined on one connection; loads the script
    /// first when needed and reruns the calls Redis answered `NOSCRIPT` (those did not run).
    func evalPipelined(_ script: RedisScript, keys: [String], calls: [ScriptArguments]) async throws -> [RedisReply] {
        let head = [Array(String(keys.count).utf8)] + keys.map { Array($0.utf8) }
        let bodies = calls.map(\.values)
        return try await client.withConnection { connection throws(RedisError) in
            var sha: String
            if let known = script.sha { sha = known } else { sha = try connection.load(script) }
            func command(_ body: [[UInt8]]) -> [[UInt8]] { [Array("EVALSHA".utf8), Array(sha.utf8)] + head + body }
            var replies = try connection.pipeline(bodies.map(command))
            let missing = replies.indices.filter {
                if case .error(let message) = replies[$0] { return message.hasPrefix("NOSCRIPT") }
                return false
            }
            if !missing.isEmpty {
                sha = try connection.load(script)
                let again = try connection.pipeline(missing.map { command(bodies[$0]) })
                for (index, reply) in zip(missing, again) { replies[index] = reply }
            }
            for reply in replies { try reply.throwingOnError() }
            return replies
        }
    }
}

/// Arguments for a script, as bytes.
struct ScriptArguments: Sendable {
    private(set) var values: [[UInt8]] = []

    init() {}

    init(_ strings: [String]) { values = strings.map { Array($0.utf8) } }

    mutating func append(_ text: String) { values.append(Array(text.utf8)) }
    mutating func append(_ data: Data) { values.append(Array(data)) }
    mutating func append(_ bytes: [UInt8]) { values.append(bytes) }
    mutating func append(_ number: Int64) { values.append(Array(String(number).utf8)) }
    mutating func append(_ number: Int) { values.append(Array(String(number).utf8)) }
}
