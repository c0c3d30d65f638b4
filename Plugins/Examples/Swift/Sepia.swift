import DarkroomPluginKit

/// `sepia(amount: 1)`: the classic sepia tone.
///
/// Each pixel's colour goes through the classic sepia matrix (0.393 0.769 0.189 / 0.349 0.686
/// 0.168 / 0.272 0.534 0.131), in integer thousandths rounded to nearest. The matrix is linear, so
/// it applies to premultiplied channels as they are; each result is clamped to the pixel's alpha
/// (a premultiplied channel never exceeds it). `amount` (0…1, as k = round(amount·255)) mixes the
/// original and the toned colour: `(c·(255−k) + s·k + 127) / 255`. Alpha is kept, and so is
/// `isOpaque`.
enum Sepia: PluginProcessor {
    static let name = "sepia"
    static let version = 1
    static let summary = "tones the image sepia (the classic matrix); alpha kept"
    static let parameters: [PluginParameter] = [
        .number("amount", in: 0...1, default: 1, summary: "0 leaves the image as it is, 1 tones it fully")
    ]

    static func process(input: PluginBitmap, output: inout PluginBitmap, arguments: PluginArguments) throws {
        let k = Int((try arguments["amount"].number * 255).rounded())
        for y in 0..<input.height {
            let source = input.row(y)
            let target = output.mutableRow(y)
            for x in stride(from: 0, to: source.count, by: 4) {
                let (r, g, b, a) = (Int(source[x]), Int(source[x + 1]), Int(source[x + 2]), Int(source[x + 3]))
                let toned = (
                    min((393 * r + 769 * g + 189 * b + 500) / 1000, a),
                    min((349 * r + 686 * g + 168 * b + 500) / 1000, a),
                    min((272 * r + 534 * g + 131 * b + 500) / 1000, a)
                )
                target[x] = UInt8((r * (255 - k) + toned.0 * k + 127) / 255)
                target[x + 1] = UInt8((g * (255 - k) + toned.1 * k + 127) / 255)
                target[x + 2] = UInt8((b * (255 - k) + toned.2 * k + 127) / 255)
                target[x + 3] = source[x + 3]
            }
        }
        output.isOpaque = input.isOpaque
    }
}
