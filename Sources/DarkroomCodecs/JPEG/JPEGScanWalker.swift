import Glibc

/// What walking a JPEG's scans found.
struct JPEGScanSummary: Equatable {
    /// An EOI marker follows the scans (anything after it is ignored, as libjpeg does).
    var foundEndOfImage: Bool
    /// Every coefficient (0…63) of every component was sent at full precision (a scan with
    /// Al = 0 covered it): the image data is all there even if the EOI marker is not.
    var coversEveryCoefficient: Bool
}

/// Walks from the first SOS marker through every scan to EOI, without decoding: used only for a
/// file that does not end with EOI, to tell "only the final marker is missing" from "cut short".
///
/// libjpeg cannot tell those apart for a progressive file cut exactly between two scans: it
/// silently shows the blurrier image the scans so far give. Here each scan header's spectral
/// range (Ss…Se) and successive-approximation bit (Al) is recorded per component; the data is
/// complete when every coefficient of every component has been sent down to bit 0. All encoders
/// in common use (libjpeg's and mozjpeg's scan scripts, baseline files) send every coefficient.
/// Entropy-coded data is skipped with `memchr` for 0xFF, so the walk costs far less than a decode.
enum JPEGScanWalker {
    static func summarize(_ data: UnsafeBufferPointer<UInt8>, firstScanOffset: Int, componentIDs: [UInt8]) -> JPEGScanSummary {
        guard let base = data.baseAddress else { return JPEGScanSummary(foundEndOfImage: false, coversEveryCoefficient: false) }
        var covered = [UInt64](repeating: 0, count: componentIDs.count)
        var position = firstScanOffset
        var foundEnd = false
        scanning: while position + 1 < data.count {
            guard data[position] == 0xFF else { break }
            var markerAt = position + 1
            while markerAt < data.count && data[markerAt] == 0xFF { markerAt += 1 }  // fill bytes
            guard markerAt < data.count else { break }
            let marker = data[markerAt]
            position = markerAt + 1
            switch marker {
            case 0xD9:
                foundEnd = true
                break scanning
            case 0xD0...0xD7, 0x01:
                continue
            default:
                break
            }
            guard position + 2 <= data.count else { break }
            let length = Int(data[position]) << 8 | Int(data[position + 1])
            let segmentEnd = position + length
            guard length >= 2, segmentEnd <= data.count else { break }
            if marker == 0xDA {
                record(
                    scanHeader: UnsafeBufferPointer(rebasing: data[position + 2..<segmentEnd]),
                    componentIDs: componentIDs, into: &covered)
                position = nextMarker(in: base, count: data.count, from: segmentEnd)
            } else {
                position = segmentEnd
            }
        }
        let complete = !covered.isEmpty && covered.allSatisfy { $0 == UInt64.max }
        return JPEGScanSummary(foundEndOfImage: foundEnd, coversEveryCoefficient: complete)
    }

    /// Notes which coefficients of which components an SOS header sends at full precision.
    private static func record(scanHeader: UnsafeBufferPointer<UInt8>, componentIDs: [UInt8], into covered: inout [UInt64]) {
        guard scanHeader.count >= 1 else { return }
        let count = Int(scanHeader[0])
        guard count >= 1, scanHeader.count >= 1 + 2 * count + 3 else { return }
        let spectralStart = Int(scanHeader[1 + 2 * count])
        let spectralEnd = Int(scanHeader[2 + 2 * count])
        let lowBit = scanHeader[3 + 2 * count] & 0x0F
        guard lowBit == 0, spectralStart <= spectralEnd, spectralEnd <= 63 else { return }
        let bits = coefficientMask(spectralStart: spectralStart, spectralEnd: spectralEnd)
        for index in 0..<count {
            if let component = componentIDs.firstIndex(of: scanHeader[1 + 2 * index]) {
                covered[component] |= bits
            }
        }
    }

    /// One bit per zigzag coefficient Ss…Se (0 ≤ Ss ≤ Se ≤ 63).
    static func coefficientMask(spectralStart: Int, spectralEnd: Int) -> UInt64 {
        let width = spectralEnd - spectralStart + 1
        return (width == 64 ? UInt64.max : ((1 << UInt64(width)) - 1)) << UInt64(spectralStart)
    }

    /// The offset of the first marker after entropy-coded data at `start`: a 0xFF followed by
    /// anything but a stuffed 0x00, a fill 0xFF or a restart marker. `count` when there is none.
    static func nextMarker(in base: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int {
        var position = start
        while position < count {
            guard let hit = memchr(base + position, 0xFF, count - position) else { return count }
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            var next = at + 1
            while next < count && base[next] == 0xFF { next += 1 }
            guard next < count else { return count }
            let byte = base[next]
            if byte == 0x00 || (0xD0...0xD7).contains(byte) {
                position = next + 1
                continue
            }
            return next - 1
        }
        return count
    }
}
