/// `smartCrop`'s attention score: how much each pixel of the sample draws the eye, and the one
/// point that draws it most, which the window is centred on.
///
/// A pixel's score is `alpha × (2 × skin + saturation + edge)`, each term in 0…1:
/// - skin: how close the pixel's chroma (BT.601 Cb, Cr on a 0…255 scale) lies to the skin-tone
///   cluster, an ellipse centred on (Cb 105, Cr 150) with half-axes 22 and 18, falling linearly
///   from 1 at the centre to 0 on the ellipse; 0 for very dark or very bright pixels (Y outside
///   40…240), whose chroma is noise. Weighted double: faces are what a crop must not cut.
/// - saturation: HSV saturation, `(max − min) / max`, for pixels not near black (max ≥ 0.1).
/// - edge: the Sobel gradient magnitude of luma, `(|gx| + |gy|) / 4`, clamped to 1.
///
/// Why a point and not the window with the greatest total score: attention is where the eye lands
/// first, one spot (a face, a red flower, a sharp edge), and a crop should frame that spot. A total
/// over a window is won by whatever fills it with middling interest — foliage, grain, a textured
/// wall — which is what the entropy strategy measures; on the corpus photos the total left the
/// subject at the window's edge or out of it (docs/benchmarks.md, "Sharpen and smart crop").
/// The map is not smoothed before its peak is taken: at 192 pixels a sample pixel already averages
/// a block of the photo, and blurring it further moved the peak off small subjects (measured, ibid.).
struct SmartCropAttention {
    /// The most interesting pixel of the sample, or nil when no pixel stands out (a flat image):
    /// among pixels scoring equally, the one nearest the sample's centre.
    let peak: (x: Int, y: Int)?

    init(_ sample: SmartCropSample) {
        let width = sample.width
        let height = sample.height
        var luma = [Double](repeating: 0, count: width * height)
        for k in luma.indices { luma[k] = sample.luma(k) }
        let centre = (x: Double(width - 1) / 2, y: Double(height - 1) / 2)
        var best = (x: 0, y: 0, score: -Double.infinity, distance: Double.infinity)
        var lowest = Double.infinity
        for y in 0..<height {
            for x in 0..<width {
                let k = y * width + x
                let r = sample.red[k]
                let g = sample.green[k]
                let b = sample.blue[k]
                let high = max(r, g, b)
                let saturation = high >= 0.1 ? (high - min(r, g, b)) / high : 0
                let score =
                    sample.alpha[k] * (2 * Self.skin(r, g, b, luma: luma[k]) + saturation + Self.edge(luma, x, y, width, height))
                lowest = min(lowest, score)
                let dx = Double(x) - centre.x
                let dy = Double(y) - centre.y
                let distance = dx * dx + dy * dy
                if score > best.score + Self.tolerance || (abs(score - best.score) <= Self.tolerance && distance < best.distance) {
                    best = (x, y, score, distance)
                }
            }
        }
        peak = best.score - lowest > Self.tolerance ? (best.x, best.y) : nil
    }

    /// Scores closer than this are equal (they are sums of at most 4).
    static let tolerance = 1e-9

    /// 1 at the centre of the skin-tone ellipse in Cb/Cr, falling to 0 on its edge.
    static func skin(_ r: Double, _ g: Double, _ b: Double, luma: Double) -> Double {
        let y = luma * 255
        guard y >= 40, y <= 240 else { return 0 }
        let cb = 128 + 255 * (-0.168736 * r - 0.331264 * g + 0.5 * b)
        let cr = 128 + 255 * (0.5 * r - 0.418688 * g - 0.081312 * b)
        let du = (cb - 105) / 22
        let dv = (cr - 150) / 18
        return max(0, 1 - (du * du + dv * dv).squareRoot())
    }

    /// The Sobel magnitude at (x, y), edges extended.
    static func edge(_ luma: [Double], _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Double {
        func at(_ dx: Int, _ dy: Int) -> Double {
            luma[min(height - 1, max(0, y + dy)) * width + min(width - 1, max(0, x + dx))]
        }
        let gx = at(1, -1) + 2 * at(1, 0) + at(1, 1) - at(-1, -1) - 2 * at(-1, 0) - at(-1, 1)
        let gy = at(-1, 1) + 2 * at(0, 1) + at(1, 1) - at(-1, -1) - 2 * at(0, -1) - at(1, -1)
        return min(1, (abs(gx) + abs(gy)) / 4)
    }
}
