import DarkroomChains
import DarkroomCore

/// Small bitmaps for the kernel and processor tests: a gradient, a solid colour, noise.
public enum TestBitmaps {
    /// An opaque image whose red grows left to right and green top to bottom; blue is constant.
    public static func gradient(width: Int, height: Int, blue: UInt8 = 64) -> Bitmap {
        try! Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * rowBytes + x * 4
                    bytes[i] = UInt8(x * 255 / max(1, width - 1))
                    bytes[i + 1] = UInt8(y * 255 / max(1, height - 1))
                    bytes[i + 2] = blue
                    bytes[i + 3] = 255
                }
            }
        }
    }

    /// A solid image of one straight-alpha colour.
    public static func solid(_ color: RGBAColor, width: Int, height: Int) -> Bitmap {
        try! Bitmap(width: width, height: height, fill: color)
    }

    /// Deterministic pseudo-random opaque noise (a fixed seed), for kernels that must be checked on
    /// detail rather than flat colour.
    public static func noise(width: Int, height: Int, seed: UInt64 = 42) -> Bitmap {
        var state = seed
        return try! Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * rowBytes + x * 4
                    for c in 0..<3 {
                        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        bytes[i + c] = UInt8(truncatingIfNeeded: state >> 56)
                    }
                    bytes[i + 3] = 255
                }
            }
        }
    }
}
