import DarkroomChains
import DarkroomCore
import DarkroomSystem
import Testing

@Suite("Bitmap and geometry")
struct BitmapTests {
    /// A 3×2 image whose pixels are numbered 0…5 in the red channel, row by row.
    static func numbered() throws -> Bitmap {
        try Bitmap(width: 3, height: 2, isOpaque: true) { bytes, rowBytes in
            for i in 0..<6 {
                let o = (i / 3) * rowBytes + (i % 3) * 4
                bytes[o] = UInt8(i)
                bytes[o + 1] = 0
                bytes[o + 2] = 0
                bytes[o + 3] = 255
            }
        }
    }

    static func reds(_ bitmap: Bitmap) -> [[UInt8]] {
        (0..<bitmap.height).map { y in (0..<bitmap.width).map { x in bitmap.premultipliedPixel(x: x, y: y).r } }
    }

    @Test(
        "Each EXIF orientation turns the stored pixels upright",
        arguments: [
            (ImageOrientation.up, [[0, 1, 2], [3, 4, 5]]),
            (.upMirrored, [[2, 1, 0], [5, 4, 3]]),
            (.down, [[5, 4, 3], [2, 1, 0]]),
            (.downMirrored, [[3, 4, 5], [0, 1, 2]]),
            (.leftMirrored, [[0, 3], [1, 4], [2, 5]]),
            (.right, [[3, 0], [4, 1], [5, 2]]),
            (.rightMirrored, [[5, 2], [4, 1], [3, 0]]),
            (.left, [[2, 5], [1, 4], [0, 3]]),
        ] as [(ImageOrientation, [[UInt8]])])
    func orientation(orientation: ImageOrientation, expected: [[UInt8]]) throws {
        let upright = try Self.numbered().applying(orientation)
        #expect(Self.reds(upright) == expected)
        #expect(upright.isOpaque)
    }

    @Test("Orientation maps the size before shrink-on-load too")
    func orientationKeepsLogicalSize() throws {
        var bitmap = try Self.numbered()
        bitmap.sizeBeforeShrinkOnLoad = PixelSize(width: 30, height: 20)
        #expect(try bitmap.applying(.right).logicalSize == PixelSize(width: 20, height: 30))
    }

    @Test("A fill colour is stored premultiplied and read back straight")
    func fillColour() throws {
        let bitmap = try Bitmap(width: 2, height: 2, fill: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(bitmap.premultipliedPixel(x: 1, y: 1) == (128, 0, 0, 128))
        #expect(bitmap.pixel(x: 1, y: 1) == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(!bitmap.isOpaque && !bitmap.scanIsOpaque())
    }

    @Test("Empty and oversized bitmaps are refused before allocating", arguments: [(0, 10), (10, -1), (70_000, 1), (20_000, 20_000)])
    func refusedSizes(width: Int, height: Int) {
        let observer = PixelMemory.Observer()
        PixelMemory.$observer.withValue(observer) {
            #expect(throws: BitmapError.self) { try Bitmap(width: width, height: height) }
        }
        #expect(observer.allocationCount == 0)
    }

    @Test("Allocations are reported to the task's observer")
    func allocationsObserved() throws {
        let observer = PixelMemory.Observer()
        try PixelMemory.$observer.withValue(observer) { _ = try Bitmap(width: 4, height: 3) }
        #expect(observer.allocationCount == 1 && observer.allocatedBytes == 48)
    }

    @Test(
        "Fit and fill keep the aspect ratio",
        arguments: [
            (PixelSize(width: 6028, height: 3391), PixelSize(width: 400, height: 400), PixelSize(width: 400, height: 225), PixelSize(width: 711, height: 400)),
            (PixelSize(width: 2056, height: 3088), PixelSize(width: 400, height: 400), PixelSize(width: 266, height: 400), PixelSize(width: 400, height: 601)),
        ])
    func fitAndFill(source: PixelSize, box: PixelSize, fit: PixelSize, fill: PixelSize) {
        #expect(source.fitting(in: box) == fit)
        #expect(source.filling(box) == fill)
    }

    @Test("A decode hint's target never asks the decoder to enlarge")
    func hintTarget() {
        let hint = DecodeHint(box: PixelSize(width: 400, height: 400), mode: .fit)
        #expect(hint.targetSize(for: PixelSize(width: 6028, height: 3391)) == PixelSize(width: 400, height: 226))
        #expect(hint.targetSize(for: PixelSize(width: 100, height: 50)) == PixelSize(width: 100, height: 50))
        let fill = DecodeHint(box: PixelSize(width: 100, height: 100), mode: .fill)
        #expect(fill.targetSize(for: PixelSize(width: 400, height: 200)) == PixelSize(width: 200, height: 100))
    }

    @Test("Anchors place a rectangle inside a container")
    func anchors() {
        let inner = PixelSize(width: 10, height: 10)
        let outer = PixelSize(width: 30, height: 20)
        #expect(UnitPoint.center.origin(of: inner, in: outer) == (10, 5))
        #expect(UnitPoint.bottomRight.origin(of: inner, in: outer) == (20, 10))
        #expect(UnitPoint(x: 0.25, y: 0).origin(of: inner, in: outer) == (5, 0))
    }
}

@Suite("BlockingWorkPool")
struct BlockingWorkPoolTests {
    @Test("Runs closures off the caller and returns their results and errors")
    func runs() async throws {
        let pool = BlockingWorkPool(threadCount: 2)
        defer { pool.shutdown() }
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 1...50 { group.addTask { try await pool.run { i * 2 } } }
            return try await group.reduce(0, +)
        }
        #expect(sum == 2550)
        struct Boom: Error {}
        await #expect(throws: Boom.self) { try await pool.run { throw Boom() } }
    }
}
