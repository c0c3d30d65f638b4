import Glibc

/// The radius of each corner of a rounded rectangle, in pixels (0 = a square corner).
public struct CornerRadii: Hashable, Sendable {
    public var topLeft: Double
    public var topRight: Double
    public var bottomLeft: Double
    public var bottomRight: Double

    public init(topLeft: Double = 0, topRight: Double = 0, bottomLeft: Double = 0, bottomRight: Double = 0) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
    }

    /// The same radius on every corner.
    public init(all radius: Double) {
        self.init(topLeft: radius, topRight: radius, bottomLeft: radius, bottomRight: radius)
    }
}

/// Anti-aliased coverage of pixels by a rounded rectangle: the exact area of each pixel square
/// that lies inside the shape, as 0…255.
///
/// The rectangle may have fractional edges (a 1.5 px border's inner edge) and a different radius
/// per corner. Coverage is produced a row at a time, and most of a row needs no work at all:
/// away from the corners a pixel's coverage is the product of its horizontal and vertical
/// overlaps, so each row reports one `solid` run of equal coverage (the whole row, for rows
/// between the corners) and only the pixels beside it are computed. Inside a corner's square a
/// pixel wholly inside or outside the circle is settled by two comparisons; only the few the arc
/// crosses get the exact area, from the closed-form integral of the circle
/// (∫√(r² − u²) du = (u·√(r² − u²) + r²·asin(u/r)) / 2).
public struct RoundedRectCoverage: Sendable {
    public let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// The radii actually used: negative or NaN ones become 0, and each is at most half the
    /// shorter side, so corners never overlap.
    public let radii: CornerRadii

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double, radii requested: CornerRadii) {
        self.minX = minX
        self.minY = minY
        self.maxX = max(minX, maxX)
        self.maxY = max(minY, maxY)
        let limit = max(0, min(self.maxX - minX, self.maxY - minY) / 2)
        func clamp(_ r: Double) -> Double { r.isNaN ? 0 : max(0, min(limit, r)) }
        radii = CornerRadii(
            topLeft: clamp(requested.topLeft), topRight: clamp(requested.topRight),
            bottomLeft: clamp(requested.bottomLeft), bottomRight: clamp(requested.bottomRight))
    }

    /// A rounded rectangle covering a whole `width × height` image.
    public init(width: Int, height: Int, radii: CornerRadii) {
        self.init(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height), radii: radii)
    }

    /// Coverage of pixel row `y` (pixels x = 0..<width). Pixels inside the returned `solid` range
    /// all have coverage `value` and are not written; every other entry of `coverage` is written.
    public func row(_ y: Int, width: Int, into coverage: UnsafeMutablePointer<UInt8>) -> (solid: Range<Int>, value: UInt8) {
        let y0 = Double(y)
        let y1 = y0 + 1
        let overlapY = Self.overlap(y0, y1, minY, maxY)
        guard overlapY > 0, maxX > minX, width > 0 else { return (0..<max(0, width), 0) }

        // The corners whose squares reach into this row (at most four: no allocation per row
        // beyond this small array's one).
        var corners: [Corner] = []
        corners.reserveCapacity(4)
        func add(_ r: Double, left: Bool, top: Bool) {
            guard r > 0 else { return }
            let cx = left ? minX + r : maxX - r
            let cy = top ? minY + r : maxY - r
            let boxY0 = top ? minY : cy
            let boxY1 = top ? cy : maxY
            guard y0 < boxY1, y1 > boxY0 else { return }
            corners.append(
                Corner(
                    cx: cx, cy: cy, r: r, x0: left ? minX : cx, x1: left ? cx : maxX,
                    y0: max(y0, boxY0), y1: min(y1, boxY1), left: left))
        }
        add(radii.topLeft, left: true, top: true)
        add(radii.topRight, left: false, top: true)
        add(radii.bottomLeft, left: true, top: false)
        add(radii.bottomRight, left: false, top: false)

        // Pixels fully between the vertical edges and clear of every corner square are solid.
        var solidStart = minX
        var solidEnd = maxX
        for c in corners {
            if c.left { solidStart = max(solidStart, c.x1) } else { solidEnd = min(solidEnd, c.x0) }
        }
        let start = max(0, min(width, Int(solidStart.rounded(.up))))
        let end = max(start, min(width, Int(solidEnd.rounded(.down))))
        let value = Self.byte(overlapY)

        // Beside the solid run: where a single corner owns this whole row, the pixels wholly
        // outside its circle are 0 and those wholly inside are 255 without any area integral;
        // only the few the arc crosses are computed. Other rows compute every pixel exactly.
        var left: Corner?
        var right: Corner?
        var lefts = 0
        var rights = 0
        for c in corners {
            if c.left {
                left = c
                lefts += 1
            } else {
                right = c
                rights += 1
            }
        }
        func exact(_ range: Range<Int>) {
            for x in range { coverage[x] = pixel(x, y0, y1, overlapY, corners) }
        }
        func fill(_ range: Range<Int>, _ v: UInt8) {
            if !range.isEmpty { (coverage + range.lowerBound).update(repeating: v, count: range.count) }
        }
        if lefts == 1, let c = left, c.y0 == y0, c.y1 == y1 {
            let (uIn, uOut) = c.arcSpan()
            let zeroEnd = Self.clampIndex((c.cx - uOut).rounded(.down), 0, start)
            let fullStart = Self.clampIndex((c.cx - uIn).rounded(.up), zeroEnd, start)
            let fullEnd = Self.clampIndex(c.cx.rounded(.down), fullStart, start)
            fill(0..<zeroEnd, 0)
            exact(zeroEnd..<fullStart)
            fill(fullStart..<fullEnd, 255)
            exact(fullEnd..<start)
        } else {
            exact(0..<start)
        }
        if rights == 1, let c = right, c.y0 == y0, c.y1 == y1 {
            let (uIn, uOut) = c.arcSpan()
            let zeroStart = Self.clampIndex((c.cx + uOut).rounded(.up), end, width)
            let fullStart = Self.clampIndex(c.cx.rounded(.up), end, zeroStart)
            let fullEnd = Self.clampIndex((c.cx + uIn).rounded(.down), fullStart, zeroStart)
            exact(end..<fullStart)
            fill(fullStart..<fullEnd, 255)
            exact(fullEnd..<zeroStart)
            fill(zeroStart..<width, 0)
        } else {
            exact(end..<width)
        }
        return (start..<end, value)
    }

    @inline(__always)
    private static func clampIndex(_ v: Double, _ lo: Int, _ hi: Int) -> Int {
        v <= Double(lo) ? lo : (v >= Double(hi) ? hi : Int(v))
    }

    private struct Corner {
        let cx: Double, cy: Double, r: Double
        /// The corner's square, its rows limited to the current pixel row.
        let x0: Double, x1: Double, y0: Double, y1: Double
        let left: Bool

        /// For the current row (wholly inside this corner's band): horizontal distances from the
        /// centre within which a pixel is wholly inside the circle (`inner`), and beyond which it
        /// is wholly outside (`outer`).
        func arcSpan() -> (inner: Double, outer: Double) {
            let v0 = min(abs(y0 - cy), abs(y1 - cy))
            let v1 = max(abs(y0 - cy), abs(y1 - cy))
            return ((max(0, r * r - v1 * v1)).squareRoot(), (max(0, r * r - v0 * v0)).squareRoot())
        }
    }

    @inline(__always)
    private func pixel(_ x: Int, _ y0: Double, _ y1: Double, _ overlapY: Double, _ corners: [Corner]) -> UInt8 {
        let px0 = Double(x)
        let px1 = px0 + 1
        let overlapX = Self.overlap(px0, px1, minX, maxX)
        if overlapX <= 0 { return 0 }
        var area = overlapX * overlapY
        for c in corners {
            let ax0 = max(px0, c.x0)
            let ax1 = min(px1, c.x1)
            guard ax1 > ax0 else { continue }
            area -= Self.outsideArea(ax0, ax1, c.y0, c.y1, c)
        }
        return Self.byte(area)
    }

    /// The area of [x0, x1] × [y0, y1] (inside a corner's square) that lies outside its circle.
    private static func outsideArea(_ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double, _ c: Corner) -> Double {
        // Distances from the centre; the square lies on one side of it, so these are monotonic.
        let u0 = min(abs(x0 - c.cx), abs(x1 - c.cx))
        let u1 = max(abs(x0 - c.cx), abs(x1 - c.cx))
        let v0 = min(abs(y0 - c.cy), abs(y1 - c.cy))
        let v1 = max(abs(y0 - c.cy), abs(y1 - c.cy))
        let r2 = c.r * c.r
        if u1 * u1 + v1 * v1 <= r2 { return 0 }  // wholly inside the circle
        let box = (u1 - u0) * (v1 - v0)
        if u0 * u0 + v0 * v0 >= r2 { return box }  // wholly outside
        let inside = quarterDisk(u1, v1, c.r) - quarterDisk(u0, v1, c.r) - quarterDisk(u1, v0, c.r) + quarterDisk(u0, v0, c.r)
        return max(0, min(box, box - inside))
    }

    /// The area of { 0 ≤ u ≤ U, 0 ≤ v ≤ V, u² + v² ≤ r² }.
    private static func quarterDisk(_ u: Double, _ v: Double, _ r: Double) -> Double {
        let u = min(u, r)
        let v = min(v, r)
        if u * u + v * v <= r * r { return u * v }
        // Below height v up to where the arc drops beneath it, then under the arc.
        let u1 = (r * r - v * v).squareRoot()
        return v * u1 + arcIntegral(u, r) - arcIntegral(u1, r)
    }

    /// ∫₀ᵘ √(r² − t²) dt.
    private static func arcIntegral(_ u: Double, _ r: Double) -> Double {
        let ratio = min(1, u / r)
        return 0.5 * (u * max(0, r * r - u * u).squareRoot() + r * r * asin(ratio))
    }

    @inline(__always)
    private static func overlap(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Double {
        max(0, min(a1, b1) - max(a0, b0))
    }

    @inline(__always)
    private static func byte(_ area: Double) -> UInt8 {
        // `Int(x + 0.5)` rather than `rounded()`: the latter is a libm call on baseline x86-64.
        UInt8(max(0, min(255, Int(area * 255 + 0.5))))
    }
}
