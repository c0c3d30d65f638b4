import Crypto
import Foundation

/// The `Darkroom-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`,
/// with one `v1` per live secret (two during a rotation), as Stripe signs its webhooks. A receiver
/// recomputes the HMAC with its secret over the timestamp and the raw body, compares in constant
/// time against every `v1`, and refuses a timestamp older than its tolerance (5 minutes in the
/// docs) so a captured request cannot be replayed later.
public enum WebhookSignature {
    /// The header's name.
    public static let headerName = "Darkroom-Signature"

    /// The header value for `body` sent at `timestamp` (Unix seconds), signed with each secret.
    public static func header(body: [UInt8], timestamp: Int, secrets: [String]) -> String {
        var parts = ["t=\(timestamp)"]
        for secret in secrets { parts.append("v1=" + hex(mac(body: body, timestamp: timestamp, secret: secret))) }
        return parts.joined(separator: ",")
    }

    /// Whether `header` carries a valid signature of `body` by `secret`, made no more than
    /// `tolerance` seconds before (or after) `now`.
    public static func verify(header: String, body: [UInt8], secret: String, now: Int, tolerance: Int = 300) -> Bool {
        var timestamp: Int?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int(pair[1]) } else if pair[0] == "v1" { signatures.append(pair[1]) }
        }
        guard let timestamp, abs(now - timestamp) <= tolerance else { return false }
        let expected = Array(hex(mac(body: body, timestamp: timestamp, secret: secret)).utf8)
        // Every candidate is compared in full, in constant time for its length.
        var matched = false
        for signature in signatures {
            let candidate = Array(signature.utf8)
            guard candidate.count == expected.count else { continue }
            var difference: UInt8 = 0
            for index in candidate.indices { difference |= candidate[index] ^ expected[index] }
            if difference == 0 { matched = true }
        }
        return matched
    }

    static func mac(body: [UInt8], timestamp: Int, secret: String) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Array(secret.utf8)))
        hmac.update(data: Array("\(timestamp).".utf8))
        hmac.update(data: body)
        return Array(hmac.finalize())
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }
}
