import Testing

@testable import DarkroomWebhooks

@Suite("Darkroom-Signature signs a timestamp and the body with every live secret")
struct WebhookSignatureTests {
    let body = Array(#"{"delivery":"d1","type":"job.succeeded"}"#.utf8)

    @Test("Given a signed body, when verified with its secret at once, then it is accepted") func roundTrip() {
        let header = WebhookSignature.header(body: body, timestamp: 1_700_000_000, secrets: ["whsec_a"])
        #expect(header.hasPrefix("t=1700000000,v1="))
        #expect(WebhookSignature.verify(header: header, body: body, secret: "whsec_a", now: 1_700_000_010))
    }

    @Test("A stale timestamp, another secret or a changed body is refused") func refusals() {
        let header = WebhookSignature.header(body: body, timestamp: 1_700_000_000, secrets: ["whsec_a"])
        #expect(!WebhookSignature.verify(header: header, body: body, secret: "whsec_a", now: 1_700_000_301))
        #expect(!WebhookSignature.verify(header: header, body: body, secret: "whsec_b", now: 1_700_000_000))
        #expect(!WebhookSignature.verify(header: header, body: body + [0x20], secret: "whsec_a", now: 1_700_000_000))
    }

    @Test("During a rotation both secrets verify") func rotation() {
        let header = WebhookSignature.header(body: body, timestamp: 5, secrets: ["whsec_old", "whsec_new"])
        #expect(header.split(separator: ",").count == 3)
        #expect(WebhookSignature.verify(header: header, body: body, secret: "whsec_old", now: 5))
        #expect(WebhookSignature.verify(header: header, body: body, secret: "whsec_new", now: 5))
    }

    @Test("The HMAC is HMAC-SHA256 of '<t>.<body>', as Python's hmac computes it") func knownValue() {
        // python3 -c 'import hmac,hashlib;print(hmac.new(b"key",b"1.x",hashlib.sha256).hexdigest())'
        let header = WebhookSignature.header(body: Array("x".utf8), timestamp: 1, secrets: ["key"])
        #expect(header == "t=1,v1=fc4913c41a7bf793267e2a384f3261c9436ec2cd097bd745e7b0d99113f510ec")
    }
}
