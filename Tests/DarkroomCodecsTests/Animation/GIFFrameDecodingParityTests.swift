import DarkroomChains
import DarkroomCore
import Foundation
import Testing

@testable import DarkroomCodecs

/// An animated GIF's frames are decoded ahead on idle cores (each frame's LZW stream on its own
/// giflib handle) and composited in order; on one core they are decoded in order from one
/// handle. These tests read every GIF the tests have both ways, strict and lenient, and hold the
/// two to the same frames (every byte, opacity, duration), the same error and the same lenient
/// ending.
@Suite("GIF frames decoded ahead equal frames decoded in order")
struct GIFFrameDecodingParityTests {
    typealias Kit = AnimationTestKit

    /// What reading a file frame by frame gives: the frames, then the error that ended it, if any.
    struct Outcome: Equatable {
        struct Frame: Equatable {
            var index: Int
            var duration: Int
            var size: PixelSize
            var isOpaque: Bool
            var pixels: [UInt8]
        }
        var frames: [Frame] = []
        var error: CodecError?
    }

    /// The fuzz harness's limits, so that fuzzed headers declaring huge frames stay cheap.
    private static let fuzzLimits = DecodeLimits(maxPixels: 4_000_000, maxDimension: 8_192, maxFrames: 64, maxAnimationPixels: 16_000_000)

    static func read(_ bytes: [UInt8], limits: DecodeLimits, ahead: Bool) -> Outcome {
        var outcome = Outcome()
        // Two threads even on a one-core machine, so the frames really are decoded ahead at once.
        RowBands.$forcedCount.withValue(ahead ? 2 : 1) {
            do throws(CodecError) {
                var reader = try GIFDecoder().animationFrames(
                    of: EncodedImage(bytes: bytes, sourceName: "parity.gif"), options: DecodeOptions(limits: limits), decodingAhead: ahead)
                while let frame = try reader.next() {
                    let bitmap = frame.bitmap
                    var pixels: [UInt8] = []
                    bitmap.withUnsafeBytes { bytes in
                        for y in 0..<bitmap.height {
                            pixels += bytes[(y * bitmap.bytesPerRow)..<(y * bitmap.bytesPerRow + bitmap.width * 4)]
                        }
                    }
                    outcome.frames.append(
                        Outcome.Frame(
                            index: frame.index, duration: frame.durationMilliseconds, size: bitmap.size, isOpaque: bitmap.isOpaque, pixels: pixels))
                }
            } catch {
                outcome.error = error
            }
        }
        return outcome
    }

    /// Checks `bytes` both ways, strict and lenient; returns the strict outcome read in order.
    @discardableResult
    static func expectSame(_ bytes: [UInt8], _ name: String, limits: DecodeLimits = DecodeLimits()) -> Outcome {
        var strictInOrder = Outcome()
        for strict in [true, false] {
            var limits = limits
            limits.strict = strict
            let inOrder = read(bytes, limits: limits, ahead: false)
            let ahead = read(bytes, limits: limits, ahead: true)
            let mode = strict ? "strict" : "lenient"
            #expect(
                ahead == inOrder,
                "\(name), \(mode): \(ahead.frames.count) frames, \(String(describing: ahead.error)) ahead; \(inOrder.frames.count), \(String(describing: inOrder.error)) in order"
            )
            if strict { strictInOrder = inOrder }
        }
        return strictInOrder
    }

    /// A 12×9 animation of 14 frames (several groups ahead): every disposal method, transparent
    /// indices, interlaced frames, local colour tables, frames without a Graphics Control
    /// Extension, partial frames, frames reaching past the screen or wholly off it, and one
    /// frame without pixels.
    static func everyCaseGIF() -> [UInt8] {
        let palette: [PWGGIFBuilder.Color] = (0..<8).map { (n: Int) -> PWGGIFBuilder.Color in
            (r: UInt8(n * 30), g: UInt8(255 - n * 30), b: UInt8(n * 17))
        }
        let local: [PWGGIFBuilder.Color] = [(1, 2, 3), (200, 10, 10), (10, 200, 10), (10, 10, 200)]
        var gif = PWGGIFBuilder(width: 12, height: 9, globalColors: palette)
        gif.netscapeLoop(0)
        // (x, y, width, height, disposal or nil for no GCE, transparent index, interlaced, local table)
        let frames: [(Int, Int, Int, Int, UInt8?, UInt8?, Bool, Bool)] = [
            (0, 0, 12, 9, 1, nil, false, false),
            (2, 1, 5, 4, 2, 3, false, false),
            (8, 6, 6, 5, 3, nil, true, true),
            (0, 0, 3, 3, nil, nil, false, false),
            (0, 0, 12, 9, 0, 0, true, false),
            (4, 4, 0, 0, 1, nil, false, false),
            (4, 2, 4, 4, 3, 2, false, false),
            (11, 0, 1, 9, 2, nil, false, false),
            (0, 8, 12, 1, 1, 1, false, true),
            (3, 1, 7, 7, 3, nil, true, false),
            (20, 20, 2, 2, 2, nil, false, false),
            (0, 0, 12, 9, 0, 7, false, false),
            (0, 0, 2, 2, 3, nil, false, false),
            (6, 3, 5, 5, 1, 1, true, true),
        ]
        for (n, frame) in frames.enumerated() {
            let (x, y, width, height, disposal, transparent, interlaced, hasLocal) = frame
            if let disposal { gif.graphicsControl(transparentIndex: transparent, disposal: disposal, delay: n % 3 * 4) }
            let colors = hasLocal ? local.count : palette.count
            let indices = (0..<(width * height)).map { (i: Int) -> UInt8 in UInt8((i * 5 + n * 3 + i / max(width, 1)) % colors) }
            gif.frame(x: x, y: y, width: width, height: height, indices: indices, localColors: hasLocal ? local : nil, interlaced: interlaced)
        }
        gif.trailer()
        return gif.bytes
    }

    @Test(
        "Given each GIF fixture, when read ahead and in order, then both give the same frames",
        arguments: ["anim-offset-first", "anim3", "interlaced", "still", "transparent"])
    func fixtures(name: String) throws {
        let outcome = Self.expectSame(try PWGTestKit.fixture("gif/\(name).gif"), name)
        #expect(outcome.error == nil)
        #expect(!outcome.frames.isEmpty)
    }

    @Test("Given the generated animations, when read ahead and in order, then both give the same frames")
    func generated() {
        let everyCase = Self.expectSame(Self.everyCaseGIF(), "every case")
        #expect(everyCase.frames.count == 14)
        #expect(everyCase.error == nil)
        #expect(Self.expectSame(Kit.disposalGIF(), "disposal").frames.count == 5)
        // Every frame undecodable: strict and lenient both fail at the first frame.
        let undecodable = Self.expectSame(Kit.undecodableFrames(width: 3, height: 2, count: 9), "undecodable")
        #expect(undecodable.error?.code == .corrupt)
    }

    @Test("Given an animation whose sixth frame has no colour table, when read ahead and in order, then both end there the same way")
    func missingColourTable() {
        var gif = PWGGIFBuilder(width: 3, height: 2)
        for n in 0..<9 {
            let colors: [PWGGIFBuilder.Color]? = n == 5 ? nil : [(UInt8(n * 20), 0, 0), (0, 0, 255)]
            gif.frame(x: 0, y: 0, width: 3, height: 2, indices: [0, 1, 0, 1, 1, 0], localColors: colors)
        }
        gif.trailer()
        var lenient = DecodeLimits()
        lenient.strict = false
        Self.expectSame(gif.bytes, "no colour table")
        #expect(Self.read(gif.bytes, limits: lenient, ahead: true).frames.count == 5)
    }

    @Test("Given every prefix of the generated animation, when read ahead and in order, then each gives the same frames or error")
    func everyPrefix() {
        let bytes = Self.everyCaseGIF()
        for cut in 6..<bytes.count {
            Self.expectSame(Array(bytes.prefix(cut)), "cut at \(cut) of \(bytes.count)")
        }
    }

    @Test("Given copies of the generated animation with one byte changed, when read ahead and in order, then each gives the same frames or error")
    func damagedCopies() {
        let bytes = Self.everyCaseGIF()
        var random = Kit.SeededBytes(seed: 28)
        for round in 0..<400 {
            var damaged = bytes
            let place = 6 + random.next(below: bytes.count - 6)
            damaged[place] = UInt8(random.next(below: 256))
            Self.expectSame(damaged, "round \(round): byte \(place) set to \(damaged[place])")
        }
    }

    @Test("Given every GIF of the fuzz corpora, when read ahead and in order under the fuzz limits, then both give the same frames or error")
    func fuzzCorpora() throws {
        let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")
        var checked = 0
        for corpus in ["animation", "decode"] {
            let directory = corpora.appendingPathComponent(corpus)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
                guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else { continue }
                let bytes = [UInt8](data)
                guard ImageFormat.sniff(bytes) == .gif else { continue }
                Self.expectSame(bytes, "\(corpus)/\(name)", limits: Self.fuzzLimits)
                checked += 1
            }
        }
        #expect(checked >= 100, "the fuzz corpora hold \(checked) GIFs")
    }
}
