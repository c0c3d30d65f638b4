/// The weights of one axis of a separable convolution: for every output index, a window of `taps`
/// consecutive input indices and one fixed-point weight for each.
///
/// Why this shape: the row kernels in `SeparableConvolution` are fastest when every window has
/// the same length (no per-output loop bounds) and lies entirely inside the input (no bounds
/// checks). So windows are padded with zero weights to a common, even length and shifted inwards
/// at the edges; indices that fall outside the input are folded onto the edge pixel, which is
/// libvips' "extend with a copy of the edge" behaviour.
///
/// Weights are `Int16` with 14 fraction bits and each output's weights sum to exactly
/// `ConvolutionWeights.one`, so a flat colour stays exactly flat and an opaque alpha channel
/// stays exactly 255. Sixteen-bit weights let LLVM lower the multiply-add to `pmaddwd`, which
/// is what makes the kernels faster than Pillow's 32-bit scalar loops on baseline x86-64.
struct ConvolutionWeights: Sendable {
    /// Fixed-point 1.0.
    static let one: Int32 = 1 << fractionBits
    static let fractionBits: Int32 = 14

    /// Number of input pixels along the axis; every window lies inside `0..<inputCount`.
    let inputCount: Int
    /// Number of output pixels along the axis.
    let outputCount: Int
    /// Window length, the same for every output; even unless it equals an odd `inputCount`.
    let taps: Int
    /// First input index of each output's window; `starts[i] + taps <= inputCount`.
    let starts: [Int32]
    /// Where each output's `taps` weights begin in `weights` (outputs may share one set).
    let offsets: [Int32]
    /// The weight sets, `taps` each.
    let weights: [Int16]

    /// Weights for an arbitrary window per output (resampling: every output has its own phase).
    ///
    /// - Parameters:
    ///   - windowLength: the most weights `window` writes for any output.
    ///   - window: writes output `i`'s real weights (not necessarily normalised) to the buffer and
    ///     returns the input index of the first one, which may be negative or past the end.
    init(
        inputCount: Int, outputCount: Int, windowLength: Int,
        window: (_ output: Int, _ values: UnsafeMutablePointer<Double>) -> Int
    ) {
        let span = max(1, min(windowLength, inputCount))  // a folded window is never longer
        let raw = UnsafeMutablePointer<Double>.allocate(capacity: max(1, windowLength))
        defer { raw.deallocate() }
        var folded = [Double](repeating: 0, count: outputCount * span)
        var firsts = [Int](repeating: 0, count: outputCount)
        var counts = [Int](repeating: 0, count: outputCount)
        folded.withUnsafeMutableBufferPointer { f in
            for i in 0..<outputCount {
                let first = window(i, raw)
                (firsts[i], counts[i]) = Self.fold(
                    raw, count: windowLength, first: first,
                    inputCount: inputCount, into: f.baseAddress! + i * span)
            }
        }
        let longest = counts.max() ?? 1
        let taps = min(longest + (longest & 1), inputCount)
        var starts = [Int32](repeating: 0, count: outputCount)
        var offsets = [Int32](repeating: 0, count: outputCount)
        var weights = [Int16](repeating: 0, count: outputCount * taps)
        folded.withUnsafeBufferPointer { f in
            weights.withUnsafeMutableBufferPointer { w in
                for i in 0..<outputCount {
                    let start = min(firsts[i], inputCount - taps)
                    starts[i] = Int32(start)
                    offsets[i] = Int32(i * taps)
                    Self.quantise(
                        f.baseAddress! + i * span, count: counts[i],
                        into: w.baseAddress! + i * taps + (firsts[i] - start))
                }
            }
        }
        self.init(
            inputCount: inputCount, outputCount: outputCount, taps: taps,
            starts: starts, offsets: offsets, weights: weights)
    }

    /// Weights for one kernel slid along the axis, output `i` centred on input `i` (a blur).
    /// Outputs whose window lies wholly inside the input share one weight set, so a wide kernel
    /// over a wide image costs memory for its edges only.
    init(count: Int, kernel: [Double]) {
        let radius = kernel.count / 2
        let taps = min(kernel.count + (kernel.count & 1), count)
        var starts: [Int32] = []
        var offsets: [Int32] = []
        var weights: [Int16] = []
        starts.reserveCapacity(count)
        offsets.reserveCapacity(count)
        var interiorOffset: Int32?
        let scratch = UnsafeMutablePointer<Double>.allocate(capacity: max(1, min(kernel.count, count)))
        defer { scratch.deallocate() }
        kernel.withUnsafeBufferPointer { k in
            for i in 0..<count {
                let first = i - radius
                let isInterior = first >= 0 && first + taps <= count
                if isInterior, let shared = interiorOffset {
                    starts.append(Int32(first))
                    offsets.append(shared)
                    continue
                }
                let (f, n) = Self.fold(k.baseAddress!, count: k.count, first: first, inputCount: count, into: scratch)
                let start = min(f, count - taps)
                starts.append(Int32(start))
                offsets.append(Int32(weights.count))
                if isInterior { interiorOffset = Int32(weights.count) }
                var set = [Int16](repeating: 0, count: taps)
                set.withUnsafeMutableBufferPointer { Self.quantise(scratch, count: n, into: $0.baseAddress! + (f - start)) }
                weights.append(contentsOf: set)
            }
        }
        self.init(inputCount: count, outputCount: count, taps: taps, starts: starts, offsets: offsets, weights: weights)
    }

    private init(inputCount: Int, outputCount: Int, taps: Int, starts: [Int32], offsets: [Int32], weights: [Int16]) {
        self.inputCount = inputCount
        self.outputCount = outputCount
        self.taps = taps
        self.starts = starts
        self.offsets = offsets
        self.weights = weights
    }

    /// True when the axis maps every output to the same input with weight 1: the pass can be skipped.
    var isIdentity: Bool {
        guard inputCount == outputCount else { return false }
        for i in 0..<outputCount {
            let base = Int(offsets[i])
            let shift = i - Int(starts[i])
            guard shift >= 0, shift < taps, weights[base + shift] == Int16(Self.one) else { return false }
        }
        return true
    }

    /// Clamps a window onto `0..<inputCount`, adding the weight of every outside index to the
    /// edge pixel, trims zero weights at both ends and normalises the sum to 1, writing the result
    /// to `out`. Returns the input index of the first weight and how many there are. A window
    /// whose weights sum to (nearly) zero becomes a copy of its nearest pixel.
    private static func fold(
        _ values: UnsafePointer<Double>, count: Int, first: Int, inputCount: Int,
        into out: UnsafeMutablePointer<Double>
    ) -> (first: Int, count: Int) {
        let last = first + count - 1
        let lo = min(max(first, 0), inputCount - 1)
        let hi = max(min(last, inputCount - 1), lo)
        let span = hi - lo + 1
        out.initialize(repeating: 0, count: span)
        for k in 0..<count {
            out[min(max(first + k, lo), hi) - lo] += values[k]
        }
        var a = 0
        var b = span - 1
        while a < b && out[a] == 0 { a += 1 }
        while b > a && out[b] == 0 { b -= 1 }
        var sum = 0.0
        for k in a...b { sum += out[k] }
        guard abs(sum) > 1e-12 else {
            out[0] = 1
            return (min(max(first + count / 2, 0), inputCount - 1), 1)
        }
        for k in a...b { out[k - a] = out[k] / sum }
        return (lo + a, b - a + 1)
    }

    /// Rounds `count` normalised weights to 14-bit fixed point at `out`, putting the rounding
    /// error on the largest so they sum to exactly `one`.
    private static func quantise(_ values: UnsafePointer<Double>, count: Int, into out: UnsafeMutablePointer<Int16>) {
        var total: Int32 = 0
        var largest = 0
        for k in 0..<count {
            // Normalised weights stay within about ±1.3, so they fit Int16 with room to spare.
            let w = Int32((values[k] * Double(one)).rounded())
            out[k] = Int16(clamping: w)
            total += w
            if values[k] > values[largest] { largest = k }
        }
        out[largest] = Int16(clamping: Int32(out[largest]) + one - total)
    }
}
