/// Removes from a progressive JPEG the scans that a 1/8-scale decode reads but never uses, so
/// shrink-on-load at 1/8 costs a fraction of the entropy decoding.
///
/// At 1/8 scale libjpeg-turbo runs a 1×1 inverse DCT on every component whose DCT scale it does
/// not enlarge to spare upsampling: the pixel is the block's DC coefficient alone. A baseline file
/// interleaves all coefficients, but a progressive one sends the DC coefficients in their own scans
/// and the AC coefficients of each component in separate scans — which libjpeg still Huffman-decodes
/// in full (the bulk of the decode time: 0.27 → 0.08 s of CPU for a 20 MP `cjpeg -progressive
/// -quality 100` file). The rewritten file keeps every marker segment and the DC scans, keeps the
/// AC scans of the components libjpeg decodes at 2×2 or larger (chroma subsampled on both axes,
/// rule scales a subsampled component's IDCT up instead of upsampling it), and replaces the other
/// AC scans by one scan per component that codes every AC coefficient as zero with end-of-band
/// runs. Those coefficients are then *known*, so libjpeg's block smoothing (which would otherwise
/// estimate missing coefficients, DC included) stays off, exactly as for the complete file: the
/// decoded pixels are identical byte for byte (`JPEGEighthScaleScansTests`).
///
/// It applies only to what it can prove equal: a Huffman-coded progressive frame (SOF2) of 8-bit
/// samples, no DNL marker, an EOI marker, and every coefficient of every component sent down to
/// bit 0 (a file missing scans decodes smoothed, and stays on the original path). The AC data of
/// the dropped scans is not read, so damage confined to it no longer fails a strict 1/8 decode.
enum JPEGEighthScaleScans {
    /// The bytes to decode at 1/8 scale instead of `data`, or nil when the rewrite does not apply
    /// (not progressive, not complete, nothing to drop) and `data` should be decoded as it is.
    static func pruned(_ data: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let base = data.baseAddress, data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(data.count / 2)
        var frame: Frame?
        var covered: [UInt64] = []
        var droppedAny = false
        var position = 2
        while true {
            guard position + 1 < data.count, data[position] == 0xFF else { return nil }
            var markerAt = position + 1
            while markerAt < data.count && data[markerAt] == 0xFF { markerAt += 1 }  // fill bytes
            guard markerAt < data.count else { return nil }
            let marker = data[markerAt]
            let segmentStart = markerAt + 1
            if marker == 0xD9 { break }
            // Restart markers and TEM belong inside scans; DNL changes the height after the fact.
            guard !(0xD0...0xD7).contains(marker), marker != 0x01, marker != 0xDC else { return nil }
            guard segmentStart + 2 <= data.count else { return nil }
            let length = Int(data[segmentStart]) << 8 | Int(data[segmentStart + 1])
            let segmentEnd = segmentStart + length
            guard length >= 2, segmentEnd <= data.count else { return nil }
            let segment = UnsafeBufferPointer(rebasing: data[segmentStart + 2..<segmentEnd])
            if Self.isStartOfFrame(marker) {
                guard marker == 0xC2, frame == nil, let parsed = Frame(segment) else { return nil }
                frame = parsed
                covered = [UInt64](repeating: 0, count: parsed.components.count)
            }
            guard marker == 0xDA else {
                output.append(0xFF)
                output.append(contentsOf: data[markerAt..<segmentEnd])
                position = segmentEnd
                continue
            }
            guard let frame, let scan = Scan(segment, frame: frame) else { return nil }
            scan.record(into: &covered)
            let dataEnd = JPEGScanWalker.nextMarker(in: base, count: data.count, from: segmentEnd)
            if scan.isNeededAtEighthScale(frame) {
                output.append(0xFF)
                output.append(contentsOf: data[markerAt..<dataEnd])
            } else {
                droppedAny = true
            }
            position = dataEnd
        }
        guard let frame, droppedAny, covered.allSatisfy({ $0 == UInt64.max }) else { return nil }
        appendZeroACScans(for: frame, to: &output)
        output.append(contentsOf: [0xFF, 0xD9])
        return output
    }

    /// SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// The frame header's components and sampling factors.
    private struct Frame {
        struct Component {
            var id: UInt8
            var horizontal: Int
            var vertical: Int
        }
        var width: Int
        var height: Int
        var components: [Component]
        var maxHorizontal: Int
        var maxVertical: Int

        init?(_ segment: UnsafeBufferPointer<UInt8>) {
            guard segment.count >= 6, segment[0] == 8 else { return nil }  // 8-bit samples only
            height = Int(segment[1]) << 8 | Int(segment[2])
            width = Int(segment[3]) << 8 | Int(segment[4])
            let count = Int(segment[5])
            guard height > 0, width > 0, (1...4).contains(count), segment.count >= 6 + 3 * count else { return nil }
            components = (0..<count).map { index in
                let factors = segment[7 + 3 * index]
                return Component(id: segment[6 + 3 * index], horizontal: Int(factors >> 4), vertical: Int(factors & 0x0F))
            }
            guard components.allSatisfy({ (1...4).contains($0.horizontal) && (1...4).contains($0.vertical) }) else { return nil }
            maxHorizontal = components.map(\.horizontal).max() ?? 1
            maxVertical = components.map(\.vertical).max() ?? 1
        }

        /// Whether libjpeg-turbo decodes `component` at 1/8 with a 1×1 IDCT (DC alone). Its
        /// master setup doubles a component's IDCT size while the sampling ratio allows it, so
        /// a subsampled component reaches its output size without upsampling; only a component
        /// it leaves at 1×1 ignores its AC coefficients.
        func usesDCOnly(_ component: Component) -> Bool {
            !(maxHorizontal % (2 * component.horizontal) == 0 && maxVertical % (2 * component.vertical) == 0)
        }

        /// The blocks a non-interleaved scan of `component` codes (libjpeg's `width_in_blocks`
        /// times `height_in_blocks`).
        func blockCount(_ component: Component) -> Int {
            let across = (width * component.horizontal + 8 * maxHorizontal - 1) / (8 * maxHorizontal)
            let down = (height * component.vertical + 8 * maxVertical - 1) / (8 * maxVertical)
            return across * down
        }
    }

    /// A scan header: which components, which coefficients, to which bit.
    private struct Scan {
        var componentIndices: [Int]
        var spectralStart: Int
        var spectralEnd: Int
        var lowBit: Int

        init?(_ segment: UnsafeBufferPointer<UInt8>, frame: Frame) {
            guard segment.count >= 1 else { return nil }
            let count = Int(segment[0])
            guard (1...4).contains(count), segment.count >= 1 + 2 * count + 3 else { return nil }
            var indices: [Int] = []
            for index in 0..<count {
                guard let found = frame.components.firstIndex(where: { $0.id == segment[1 + 2 * index] }) else { return nil }
                indices.append(found)
            }
            componentIndices = indices
            spectralStart = Int(segment[1 + 2 * count])
            spectralEnd = Int(segment[2 + 2 * count])
            lowBit = Int(segment[3 + 2 * count] & 0x0F)
            // A progressive AC scan holds exactly one component (ITU T.81 G.1.1.1.1).
            guard spectralStart <= spectralEnd, spectralEnd <= 63, spectralStart == 0 || count == 1 else { return nil }
        }

        /// Marks the coefficients this scan sends at full precision.
        func record(into covered: inout [UInt64]) {
            guard lowBit == 0 else { return }
            let bits = JPEGScanWalker.coefficientMask(spectralStart: spectralStart, spectralEnd: spectralEnd)
            for index in componentIndices { covered[index] |= bits }
        }

        /// DC scans are always needed; an AC scan only for a component decoded at 2×2 or more.
        func isNeededAtEighthScale(_ frame: Frame) -> Bool {
            spectralStart == 0 || !frame.usesDCOnly(frame.components[componentIndices[0]])
        }
    }

    /// Appends, after every kept scan, one scan per DC-only component that sets its AC
    /// coefficients 1…63 to zero at full precision: a restart interval of 0 (runs may then span
    /// the whole component), an AC Huffman table holding only the end-of-band-run symbols EOB0…
    /// EOB14 with 4-bit codes, and runs of at most 32,767 blocks.
    private static func appendZeroACScans(for frame: Frame, to output: inout [UInt8]) {
        output.append(contentsOf: [0xFF, 0xDD, 0x00, 0x04, 0x00, 0x00])  // DRI: no restarts
        var table: [UInt8] = [0x10]  // class 1 (AC), table 0
        var counts = [UInt8](repeating: 0, count: 16)
        counts[3] = 15  // fifteen codes of 4 bits: 0000…1110, in symbol order
        table += counts
        table += (0..<15).map { UInt8($0) << 4 }  // EOBn is (n << 4) | 0
        output.append(contentsOf: [0xFF, 0xC4, 0x00, UInt8(table.count + 2)])
        output += table
        for component in frame.components where frame.usesDCOnly(component) {
            output.append(contentsOf: [0xFF, 0xDA, 0x00, 0x08, 0x01, component.id, 0x00, 0x01, 0x3F, 0x00])
            var bits = EntropyBitWriter()
            var remaining = frame.blockCount(component)
            while remaining > 0 {
                let run = min(remaining, 32767)
                let exponent = Int.bitWidth - 1 - run.leadingZeroBitCount  // EOBn codes 2^n…2^(n+1)-1 blocks
                bits.write(UInt32(exponent), count: 4)  // the code of EOBn is n
                if exponent > 0 { bits.write(UInt32(run - (1 << exponent)), count: exponent) }
                remaining -= run
            }
            output += bits.finish()
        }
    }
}

/// Packs Huffman codes most significant bit first, stuffing a zero byte after each 0xFF and
/// padding the last byte with one bits, as entropy-coded JPEG data requires.
private struct EntropyBitWriter {
    private(set) var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var pending = 0

    mutating func write(_ value: UInt32, count: Int) {
        accumulator = (accumulator << UInt64(count)) | UInt64(value & UInt32((1 << count) - 1))
        pending += count
        while pending >= 8 {
            pending -= 8
            let byte = UInt8(truncatingIfNeeded: accumulator >> UInt64(pending))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0x00) }
        }
        accumulator &= (1 << UInt64(pending)) - 1
    }

    mutating func finish() -> [UInt8] {
        if pending > 0 { write(UInt32((1 << (8 - pending)) - 1), count: 8 - pending) }
        return bytes
    }
}
