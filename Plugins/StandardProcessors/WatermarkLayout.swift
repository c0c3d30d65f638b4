import DarkroomChains
import DarkroomCore

/// Where a watermark's copies lie on an output: its scaled size and the top-left corners of its
/// columns and rows (one of each unless tiled).
///
/// Single: inside the output less `margin` on every side, the anchor picks the place as `extend`
/// does — on each axis the offset is that fraction of the free space, rounded down — so
/// `bottomRight` is `margin` from the right and bottom edges and `center` ignores the margin.
/// A watermark larger than that area sticks out past the margin (cut off at the edges).
///
/// Tiled: the same place, repeated every `width + margin` across and `height + margin` down
/// over the whole output, partial copies at the edges included. Copies never overlap.
public struct WatermarkLayout: Sendable, Equatable {
    /// Most copies a tiled watermark may have.
    public static let maxTiles = 10_000

    /// The watermark's size on the output.
    public var size: PixelSize
    /// The left edges of its columns, ascending; some may start left of 0.
    public var columns: [Int]
    /// The top edges of its rows, ascending; some may start above 0.
    public var rows: [Int]

    /// - Throws: `ResourceError.tooManyTiles` when tiling would make more than `maxTiles` copies.
    public init(
        output: PixelSize, mark: PixelSize, anchor: UnitPoint, margin: Int, scale: Double, tile: Bool,
        reference: ResourceReference
    ) throws(ResourceError) {
        let width = max(1, Int((scale * Double(output.width)).rounded()))
        let height = max(1, Int((Double(width) * Double(mark.height) / Double(mark.width)).rounded()))
        size = PixelSize(width: width, height: height)
        let x = margin + Int((Double(output.width - width - 2 * margin) * anchor.x).rounded(.down))
        let y = margin + Int((Double(output.height - height - 2 * margin) * anchor.y).rounded(.down))
        guard tile else {
            (columns, rows) = ([x], [y])
            return
        }
        let across = Self.grid(through: x, step: width + margin, length: output.width)
        let down = Self.grid(through: y, step: height + margin, length: output.height)
        // Counted before the positions are listed, so a 1 px watermark on a large output fails at once.
        let (count, overflow) = across.count.multipliedReportingOverflow(by: down.count)
        guard !overflow, count <= Self.maxTiles else {
            throw .tooManyTiles(reference, count: overflow ? Int.max : count, limit: Self.maxTiles)
        }
        columns = Array(stride(from: across.first, to: output.width, by: width + margin))
        rows = Array(stride(from: down.first, to: output.height, by: height + margin))
    }

    /// The first position ≤ 0 of the grid through `position` with `step`, and how many of its
    /// positions start before `length`.
    static func grid(through position: Int, step: Int, length: Int) -> (first: Int, count: Int) {
        let remainder = ((position % step) + step) % step
        let first = remainder == 0 ? 0 : remainder - step
        return (first, (length - first + step - 1) / step)
    }
}

extension Bitmap {
    /// `mark` drawn source-over at every place of `layout`, its premultiplied channels times
    /// `opacity` first: `d = m' + d·(255 − m'α)/255` with `m' = m·round(255·opacity)/255`, each
    /// product rounded to nearest. Row by row in bands on the idle cores (each output row is
    /// written by one band only, so banded and unbanded give the same bytes).
    func drawing(_ mark: Bitmap, at layout: WatermarkLayout, opacity: Double) -> Bitmap {
        var result = self
        let strength = UInt32((opacity * 255).rounded())
        guard strength > 0 else { return result }
        let (width, height) = (self.width, self.height)
        let (markWidth, markHeight) = (mark.width, mark.height)
        let rowStride = layout.rows.count > 1 ? layout.rows[1] - layout.rows[0] : Int.max
        let firstRow = layout.rows[0]
        let columns = layout.columns
        let dstRow = result.bytesPerRow
        result.withUnsafeMutableBytes { dst in
            mark.withUnsafeBytes { src in
                RowBands.forEachNonThrowing(rows: height, width: width) { band in
                    for y in band {
                        // Copies never overlap: at most one row of them covers output row y.
                        guard y >= firstRow else { continue }
                        let top = rowStride == .max ? firstRow : firstRow + (y - firstRow) / rowStride * rowStride
                        let sy = y - top
                        guard top <= layout.rows[layout.rows.count - 1], sy < markHeight else { continue }
                        let markLine = sy * mark.bytesPerRow
                        let line = y * dstRow
                        for left in columns {
                            for x in max(0, left)..<min(width, left + markWidth) {
                                let s = markLine + (x - left) * 4
                                let d = line + x * 4
                                let alpha = PixelArithmetic.div255(UInt32(src[s + 3]) * strength)
                                guard alpha > 0 else { continue }
                                let keep = 255 - alpha
                                for c in 0..<4 {
                                    let m = c == 3 ? alpha : PixelArithmetic.div255(UInt32(src[s + c]) * strength)
                                    dst[d + c] = UInt8(min(255, m + PixelArithmetic.div255(UInt32(dst[d + c]) * keep)))
                                }
                            }
                        }
                    }
                }
            }
        }
        return result
    }
}
