import DarkroomChains
import DarkroomCore
import Testing

@Suite("Bitmap limits: a ceiling passed with the bitmap, not a process-wide setting")
struct BitmapLimitsTests {
    static let oneMegapixel = BitmapLimits(maxPixelCount: 1_000_000)
    /// Small enough that the kernels' tests stay fast in debug builds.
    static let tiny = BitmapLimits(maxPixelCount: 10_000)

    static func opaque(_ width: Int, _ height: Int, limits: BitmapLimits) throws -> Bitmap {
        try Bitmap(width: width, height: height, fill: RGBAColor(red: 10, green: 20, blue: 30), limits: limits)
    }

    @Test("Given a 1 MP ceiling, when a bitmap over it is made, then it is refused naming the ceiling and nothing is allocated")
    func refusedOverTheCeiling() {
        let observer = PixelMemory.Observer()
        PixelMemory.$observer.withValue(observer) {
            #expect(throws: BitmapError.tooLarge(width: 1_001, height: 1_000, maxPixelCount: 1_000_000)) {
                try Bitmap(width: 1_001, height: 1_000, limits: Self.oneMegapixel)
            }
        }
        #expect(observer.allocationCount == 0)
        #expect(
            BitmapError.tooLarge(width: 1_001, height: 1_000, maxPixelCount: 1_000_000).description
                == "image size 1001x1000 = 1.0 MP, over the 1 MP per image limit (raise it with --max-output-pixels)")
        #expect(
            BitmapError.tooLarge(width: 70_000, height: 10, maxPixelCount: 100_000_000).description
                == "image size 70000x10 is over the 65535 px per side bitmap limit (a fixed limit)")
    }

    @Test("Given a bitmap made under a ceiling, when kernels derive new bitmaps from it, then each inherits the ceiling")
    func derivedBitmapsInherit() throws {
        let source = try Self.opaque(40, 30, limits: Self.tiny)
        let derived = [
            try source.cropped(to: PixelRect(x: 2, y: 2, width: 10, height: 10)),
            try source.applying(.right),
            try source.resampled(to: PixelSize(width: 80, height: 60)),
            try source.rotated(byDegrees: 30, background: .clear),
        ]
        for bitmap in derived {
            #expect(bitmap.limits == Self.tiny)
        }
    }

    @Test("Given a bitmap made under a ceiling, when it is enlarged past it, then the kernel refuses before allocating")
    func enlargingPastTheInheritedCeiling() throws {
        let source = try Self.opaque(40, 30, limits: Self.tiny)
        let observer = PixelMemory.Observer()
        PixelMemory.$observer.withValue(observer) {
            #expect(throws: BitmapError.tooLarge(width: 120, height: 100, maxPixelCount: 10_000)) {
                try source.resampled(to: PixelSize(width: 120, height: 100))
            }
        }
        #expect(observer.allocationCount == 0)
    }

    @Test("Given two ceilings used at once in one process, then each bitmap is held to its own")
    func ceilingsDoNotInterfere() async throws {
        let results = await withTaskGroup(of: (BitmapLimits, Bool).self) { group in
            for limits in [Self.tiny, BitmapLimits()] {
                for _ in 0..<4 {
                    group.addTask {
                        let enlarged = try? Self.opaque(40, 30, limits: limits).resampled(to: PixelSize(width: 120, height: 100))
                        return (limits, enlarged != nil)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        for (limits, succeeded) in results {
            #expect(succeeded == (limits == BitmapLimits()), "\(limits)")
        }
    }

    @Test("A ceiling below one pixel is raised to one")
    func ceilingIsAtLeastOne() {
        #expect(BitmapLimits(maxPixelCount: 0).maxPixelCount == 1)
        #expect(BitmapLimits().maxPixelCount == BitmapLimits.standardMaxPixelCount)
    }
}
