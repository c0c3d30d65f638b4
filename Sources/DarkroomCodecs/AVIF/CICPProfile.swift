import CLcms2
import DarkroomSystem

/// An ICC profile built with lcms2 from an AVIF's CICP colour description (ITU-T H.273 colour
/// primaries and transfer characteristics, the `nclx` box), so a P3 or BT.2020 image goes through
/// the same `ICCProfileConverter` path to sRGB as an embedded profile.
///
/// - Primaries: BT.709 (1), BT.470BG (5), BT.601 (6), SMPTE 240 (7), BT.2020 (9), DCI-P3 (11)
///   and Display P3 (12) are converted; unspecified (2) and every other value are taken as sRGB.
/// - Transfer: sRGB (13) and the BT.709 family (1, 6, 14, 15) decode with the sRGB curve, as
///   browsers treat them; gamma 2.2 (4), gamma 2.8 (5) and linear (8) with their own curves. PQ
///   (16) and HLG (18) are HDR: they are not tone-mapped, and decode with the sRGB curve.
/// - sRGB primaries with an sRGB-like curve need no profile (`nil`): nothing is converted.
enum CICPProfile {
    /// The profile for `primaries` and `transfer`, or nil when the pixels are sRGB already.
    static func profile(primaries: Int, transfer: Int) -> [UInt8]? {
        let gamma = self.gamma(transfer)
        guard let chromaticity = Self.chromaticity(primaries) else {
            return gamma == nil ? nil : cached(primaries: 1, transfer: transfer, gamma: gamma)
        }
        return cached(primaries: primaries, transfer: transfer, gamma: gamma, chromaticity: chromaticity)
    }

    /// Red, green and blue x,y, then the white point's.
    typealias Chromaticity = (r: (Double, Double), g: (Double, Double), b: (Double, Double), white: (Double, Double))

    static let d65 = (0.3127, 0.3290)

    /// The primaries that differ from sRGB's (BT.709's), by H.273 code.
    static func chromaticity(_ code: Int) -> Chromaticity? {
        switch code {
        case 5: return ((0.64, 0.33), (0.29, 0.60), (0.15, 0.06), d65)
        case 6, 7: return ((0.630, 0.340), (0.310, 0.595), (0.155, 0.070), d65)
        case 9: return ((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), d65)
        case 11: return ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.314, 0.351))
        case 12: return ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), d65)
        default: return nil
        }
    }

    /// A pure power-law exponent for the transfers that have one; nil for the sRGB curve.
    static func gamma(_ code: Int) -> Double? {
        switch code {
        case 4: return 2.2
        case 5: return 2.8
        case 8: return 1.0
        default: return nil
        }
    }

    private static let profiles = Locked<[Int: [UInt8]]>([:])

    private static func cached(
        primaries: Int, transfer: Int, gamma: Double?,
        chromaticity: Chromaticity = ((0.64, 0.33), (0.30, 0.60), (0.15, 0.06), d65)
    ) -> [UInt8]? {
        let key = primaries << 16 | (gamma == nil ? 13 : transfer)
        if let known = profiles.withLock({ $0[key] }) { return known }
        guard let made = make(chromaticity, gamma: gamma) else { return nil }
        profiles.withLock { $0[key] = made }
        return made
    }

    /// Builds the profile's bytes with lcms2 (nil only if lcms2 fails to, e.g. out of memory).
    private static func make(_ c: Chromaticity, gamma: Double?) -> [UInt8]? {
        var white = cmsCIExyY(x: c.white.0, y: c.white.1, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: c.r.0, y: c.r.1, Y: 1), Green: cmsCIExyY(x: c.g.0, y: c.g.1, Y: 1),
            Blue: cmsCIExyY(x: c.b.0, y: c.b.1, Y: 1))
        // Type 4 is the sRGB curve: linear below 0.04045, a 2.4 power above it.
        var parameters: [Double] = gamma.map { [$0] } ?? [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        guard let curve = cmsBuildParametricToneCurve(nil, gamma == nil ? 4 : 1, &parameters) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else { return nil }
        defer { cmsCloseProfile(profile) }
        var length: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &length) != 0, length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        guard cmsSaveProfileToMem(profile, &bytes, &length) != 0 else { return nil }
        return bytes
    }
}
