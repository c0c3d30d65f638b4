/// Webhook signing secrets: `whsec_` and 32 random bytes in hex, from the system's generator.
enum WebhookSecret {
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "whsec_" + WebhookSignature.hex(bytes)
    }
}
