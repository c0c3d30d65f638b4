import DarkroomCore
import Testing

@Suite("Rounded-rectangle coverage")
struct ColorCoverageMaskTests {
    /// Coverage of every pixel of a `width × height` grid, row-major.
    func coverage(_ shape: RoundedRectCoverage, width: Int, height: Int) -> [[Int]] {
        var buffer = [UInt8](repeating: 0, count: width)
        return (0..<height).map { y in
            buffer.withUnsafeMutableBufferPointer { b in
                let (solid, value) = shape.row(y, width: width, into: b.baseAddress!)
                return (0..<width).map { solid.contains($0) ? Int(value) : Int(b[$0]) }
            }
        }
    }

    /// The fraction of pixel (x, y) inside the rounded rectangle, integrated numerically: at 2000
    /// columns across the pixel, the exact height of the shape's vertical span inside the pixel.
    func reference(_ s: RoundedRectCoverage, x: Int, y: Int) -> Double {
        let n = 2000
        var sum = 0.0
        for i in 0..<n {
            let px = Double(x) + (Double(i) + 0.5) / Double(n)
            guard px > s.minX, px < s.maxX else { continue }
            func inset(_ r: Double, _ distanceIntoCorner: Double) -> Double {
                distanceIntoCorner > 0 ? r - (r * r - distanceIntoCorner * distanceIntoCorner).squareRoot() : 0
            }
            let top =
                s.minY
                + max(
                    inset(s.radii.topLeft, s.minX + s.radii.topLeft - px),
                    inset(s.radii.topRight, px - (s.maxX - s.radii.topRight)))
            let bottom =
                s.maxY
                - max(
                    inset(s.radii.bottomLeft, s.minX + s.radii.bottomLeft - px),
                    inset(s.radii.bottomRight, px - (s.maxX - s.radii.bottomRight)))
            sum += max(0, min(Double(y + 1), bottom) - max(Double(y), top))
        }
        return sum / Double(n)
    }

    @Test("Given radius 20 on 100×100, the covered area is the rectangle minus (4 − π)·r²")
    func totalArea() {
        let shape = RoundedRectCoverage(width: 100, height: 100, radii: CornerRadii(all: 20))
        let total = coverage(shape, width: 100, height: 100).joined().reduce(0, +)
        #expect(abs(Double(total) / 255 - (10_000 - (4 - Double.pi) * 400)) < 1.5)
    }

    @Test("Corner pixels are exact areas: deep corner 0, centre 255, pixels on the arc in between")
    func cornerPixels() {
        let shape = RoundedRectCoverage(width: 100, height: 100, radii: CornerRadii(all: 20))
        let grid = coverage(shape, width: 100, height: 100)
        #expect(grid[0][0] == 0)
        #expect(grid[50][50] == 255)
        #expect(grid[0][50] == 255)
        let arc = grid[5][5]  // the 45° point (5.86, 5.86) lies in this pixel
        #expect(arc > 0 && arc < 255)
        for (x, y) in [(5, 5), (0, 19), (3, 8), (19, 0), (96, 4), (92, 97)] {
            let expected = reference(shape, x: x, y: y) * 255
            #expect(abs(Double(grid[y][x]) - expected) <= 0.51, "pixel (\(x), \(y))")
        }
    }

    @Test("Every pixel matches a supersampled reference, with fractional edges and a different radius per corner")
    func wholeGridMatchesReference() {
        let shapes = [
            RoundedRectCoverage(minX: 0, minY: 0, maxX: 24, maxY: 18, radii: CornerRadii(topLeft: 9, topRight: 2.5, bottomLeft: 0, bottomRight: 6)),
            RoundedRectCoverage(minX: 1.25, minY: 2.5, maxX: 21.5, maxY: 16.75, radii: CornerRadii(all: 4.4)),
            RoundedRectCoverage(minX: 0.5, minY: 0.5, maxX: 11.5, maxY: 17.5, radii: CornerRadii(all: 100)),
        ]
        for shape in shapes {
            let grid = coverage(shape, width: 24, height: 18)
            for y in 0..<18 {
                for x in 0..<24 {
                    let expected = reference(shape, x: x, y: y) * 255
                    #expect(abs(Double(grid[y][x]) - expected) <= 0.51, "pixel (\(x), \(y)) of \(shape.radii)")
                }
            }
        }
    }

    @Test("The mask is symmetric when every corner has the same radius")
    func symmetry() {
        let grid = coverage(RoundedRectCoverage(width: 30, height: 20, radii: CornerRadii(all: 7.5)), width: 30, height: 20)
        for y in 0..<20 {
            for x in 0..<30 {
                #expect(grid[y][x] == grid[19 - y][x] && grid[y][x] == grid[y][29 - x], "(\(x), \(y))")
            }
        }
    }

    @Test("Fractional edges cover the edge pixels partially; radii clamp to half the shorter side")
    func fractionalEdgesAndClamping() {
        let shape = RoundedRectCoverage(minX: 1.5, minY: 1.5, maxX: 8.5, maxY: 8.5, radii: CornerRadii())
        let grid = coverage(shape, width: 10, height: 10)
        #expect(grid[5][0] == 0)
        #expect(abs(grid[5][1] - 128) <= 1)
        #expect(abs(grid[1][1] - 64) <= 1)
        #expect(grid[5][5] == 255)
        let capsule = RoundedRectCoverage(width: 40, height: 20, radii: CornerRadii(all: 1000))
        #expect(capsule.radii == CornerRadii(all: 10))
        let empty = RoundedRectCoverage(minX: 5, minY: 5, maxX: 3, maxY: 3, radii: CornerRadii(all: 2))
        #expect(coverage(empty, width: 8, height: 8).joined().allSatisfy { $0 == 0 })
    }
}
