import Glibc

/// `smartCrop`'s entropy score: the Shannon entropy, in bits, of a window's luminance histogram
/// (32 equal bins of BT.601 luma, each pixel counted with its alpha as weight). A window of one
/// flat colour scores 0; the more evenly its tones spread over the bins, the higher it scores.
///
/// One summed-area table per bin gives any window's histogram in 32 lookups, so every position
/// is tried exactly.
struct SmartCropEntropy {
    static let bins = 32
    private let tables: [SummedArea]

    init(_ sample: SmartCropSample) {
        let count = sample.width * sample.height
        var planes = [[Double]](repeating: [Double](repeating: 0, count: count), count: Self.bins)
        for k in 0..<count {
            let bin = min(Self.bins - 1, Int(sample.luma(k) * Double(Self.bins)))
            planes[bin][k] = sample.alpha[k]
        }
        tables = planes.map { SummedArea(width: sample.width, height: sample.height, values: $0) }
    }

    func entropy(x: Int, y: Int, width: Int, height: Int) -> Double {
        let counts = tables.map { $0.sum(x: x, y: y, width: width, height: height) }
        let total = counts.reduce(0, +)
        guard total > 0 else { return 0 }
        var bits = 0.0
        for c in counts where c > 0 {
            let p = c / total
            bits -= p * log2(p)
        }
        return bits
    }
}
