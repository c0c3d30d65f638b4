import CWebP
import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("WebP animation compositing and sub-frame encoding")
struct WebPCompositingTests {
    typealias Kit = AnimationTestKit

    /// One frame of a hand-built animation: its pixels, place, blending and disposal.
    struct FramePlan {
        var width: Int
        var height: Int
        var x: Int
        var y: Int
        var translucent: Bool
        var blend: Bool
        var disposeToBackground: Bool
    }

    @Test("Given frames with offsets, alpha, blending and both disposals, Darkroom's frames equal libwebp's WebPAnimDecoder byte for byte")
    func matchesLibwebpCompositing() throws {
        let plans = [
            FramePlan(width: 20, height: 10, x: 4, y: 6, translucent: true, blend: true, disposeToBackground: false),
            FramePlan(width: 40, height: 30, x: 0, y: 0, translucent: true, blend: true, disposeToBackground: true),
            FramePlan(width: 16, height: 16, x: 10, y: 8, translucent: true, blend: true, disposeToBackground: false),
            FramePlan(width: 12, height: 8, x: 2, y: 2, translucent: false, blend: false, disposeToBackground: true),
            FramePlan(width: 30, height: 20, x: 6, y: 4, translucent: true, blend: true, disposeToBackground: false),
            FramePlan(width: 8, height: 8, x: 20, y: 20, translucent: true, blend: false, disposeToBackground: false),
            FramePlan(width: 22, height: 14, x: 0, y: 16, translucent: true, blend: true, disposeToBackground: true),
            FramePlan(width: 10, height: 10, x: 18, y: 10, translucent: true, blend: true, disposeToBackground: false),
        ]
        let file = try Self.mux(plans, canvas: PixelSize(width: 40, height: 30))
        let ours = try Kit.readAll(file, name: "composite.webp").animation.frames
        let theirs = Self.libwebpFrames(file)
        #expect(ours.count == plans.count)
        #expect(theirs.count == plans.count)
        for (index, (frame, reference)) in zip(ours, theirs).enumerated() {
            let bytes = frame.bitmap.withUnsafeBytes { Array($0) }
            #expect(bytes == reference, "frame \(index + 1) differs from libwebp's")
        }
    }

    @Test("Given frames that change only in a corner, the file stores that rectangle at even offsets and decodes to every frame exactly")
    func storesChangedRectangles() throws {
        let size = PixelSize(width: 48, height: 36)
        let background = try Kit.smoothTranslucent(width: size.width, height: size.height, seed: 3)
        var frames: [(Bitmap, Int)] = [(background, 40)]
        for n in 1...3 {
            var bitmap = background
            bitmap.withUnsafeMutableBytes { bytes in
                // A 5×3 opaque mark at an odd place, different in each frame.
                for y in 21..<24 {
                    for x in 31..<36 {
                        let i = y * size.width * 4 + x * 4
                        bytes[i] = UInt8(60 * n)
                        bytes[i + 1] = 0
                        bytes[i + 2] = 0
                        bytes[i + 3] = 255
                    }
                }
            }
            frames.append((bitmap, 40))
        }
        var encoder = try AnimatedWebPEncoder(canvasSize: size, options: EncodeOptions(lossless: true))
        try encoder.add(frames.map { (bitmap: $0.0, durationMilliseconds: $0.1) })
        let file = try encoder.finish()
        let rects = Self.frameRects(file)
        #expect(rects.first == PixelRect(x: 0, y: 0, width: 48, height: 36))
        // The mark spans x 31…35, y 21…23: stored from (30, 20), offsets rounded down to even.
        #expect(rects.dropFirst().allSatisfy { $0 == PixelRect(x: 30, y: 20, width: 6, height: 4) }, "\(rects)")
        let read = try Kit.readAll(file, name: "rects.webp").animation.frames
        #expect(read.count == frames.count)
        for (index, (frame, original)) in zip(read, frames).enumerated() {
            let difference = Kit.difference(frame.bitmap, original.0)
            // Lossless: alpha is exact; colours differ only by libwebp's premultiply rounding.
            #expect(difference.worstColor <= 1 && difference.alphaEqual, "frame \(index + 1): \(difference)")
        }
    }

    @Test("Given a frame identical to the one before, it is merged into it with the durations added")
    func mergesIdenticalFrames() throws {
        let size = PixelSize(width: 16, height: 12)
        let a = try Kit.movingSquare(width: size.width, height: size.height, seed: 1)
        let b = try Kit.movingSquare(width: size.width, height: size.height, seed: 2)
        var encoder = try AnimatedWebPEncoder(canvasSize: size, options: EncodeOptions(lossless: true))
        try encoder.add([(a, 30), (a, 50), (b, 70)])
        let read = try Kit.readAll(encoder.finish(), name: "merged.webp").animation.frames
        #expect(read.map(\.durationMilliseconds) == [80, 70])
    }

    @Test("Given the same frames encoded in one band or several, the files are the same bytes")
    func bandsGiveIdenticalFiles() throws {
        let size = PixelSize(width: 40, height: 30)
        let frames = try (0..<7).map { (try Kit.movingSquare(width: size.width, height: size.height, seed: $0), 20 + $0) }
        let files = try [1, 2, 3].map { bands in
            try RowBands.$forcedCount.withValue(bands) {
                var encoder = try AnimatedWebPEncoder(canvasSize: size, options: EncodeOptions(quality: 70))
                try encoder.add(Array(frames.prefix(4)).map { (bitmap: $0.0, durationMilliseconds: $0.1) })
                try encoder.add(Array(frames.dropFirst(4)).map { (bitmap: $0.0, durationMilliseconds: $0.1) })
                return try encoder.finish()
            }
        }
        #expect(Set(files).count == 1)
    }

    /// An animated WebP of `plans`, each frame a lossless still placed with libwebp's mux.
    static func mux(_ plans: [FramePlan], canvas: PixelSize) throws -> [UInt8] {
        let mux = try #require(darkroom_webp_mux_new())
        defer { WebPMuxDelete(mux) }
        for (index, plan) in plans.enumerated() {
            let bitmap =
                plan.translucent
                ? try Kit.smoothTranslucent(width: plan.width, height: plan.height, seed: index)
                : try Kit.movingSquare(width: plan.width, height: plan.height, seed: index)
            let still = try WebPEncoder().encode(bitmap, options: EncodeOptions(lossless: true))
            let status = still.withUnsafeBufferPointer { bytes in
                var info = WebPMuxFrameInfo()
                info.bitstream = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                info.x_offset = Int32(plan.x)
                info.y_offset = Int32(plan.y)
                info.duration = 50
                info.id = WEBP_CHUNK_ANMF
                info.dispose_method = plan.disposeToBackground ? WEBP_MUX_DISPOSE_BACKGROUND : WEBP_MUX_DISPOSE_NONE
                info.blend_method = plan.blend ? WEBP_MUX_BLEND : WEBP_MUX_NO_BLEND
                return WebPMuxPushFrame(mux, &info, 1)
            }
            try #require(status == WEBP_MUX_OK)
        }
        let parameters = WebPMuxAnimParams(bgcolor: 0, loop_count: 0)
        try #require(withUnsafePointer(to: parameters) { WebPMuxSetAnimationParams(mux, $0) } == WEBP_MUX_OK)
        try #require(WebPMuxSetCanvasSize(mux, Int32(canvas.width), Int32(canvas.height)) == WEBP_MUX_OK)
        var output = WebPData()
        try #require(WebPMuxAssemble(mux, &output) == WEBP_MUX_OK)
        defer { WebPDataClear(&output) }
        return Array(UnsafeBufferPointer(start: output.bytes, count: output.size))
    }

    /// Every frame as libwebp's `WebPAnimDecoder` composites it, premultiplied RGBA.
    static func libwebpFrames(_ file: [UInt8]) -> [[UInt8]] {
        file.withUnsafeBufferPointer { bytes in
            var options = WebPAnimDecoderOptions()
            guard darkroom_webp_anim_decoder_options_init(&options) != 0 else { return [] }
            options.color_mode = MODE_rgbA
            var data = WebPData(bytes: bytes.baseAddress, size: bytes.count)
            guard let decoder = darkroom_webp_anim_decoder_new(&data, &options) else { return [] }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            WebPAnimDecoderGetInfo(decoder, &info)
            let length = Int(info.canvas_width * info.canvas_height * 4)
            var frames: [[UInt8]] = []
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else { break }
                frames.append(Array(UnsafeBufferPointer(start: pixels, count: length)))
            }
            return frames
        }
    }

    /// The rectangle of each frame in an animated WebP, as its ANMF chunks place them.
    static func frameRects(_ file: [UInt8]) -> [PixelRect] {
        file.withUnsafeBufferPointer { bytes in
            var data = WebPData(bytes: bytes.baseAddress, size: bytes.count)
            guard let demuxer = darkroom_webp_demux(&data) else { return [] }
            defer { WebPDemuxDelete(demuxer) }
            let count = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
            return (0..<count).map { index in
                var iterator = WebPIterator()
                defer { WebPDemuxReleaseIterator(&iterator) }
                guard WebPDemuxGetFrame(demuxer, Int32(index + 1), &iterator) != 0 else { return PixelRect(x: -1, y: -1, width: 0, height: 0) }
                return PixelRect(x: Int(iterator.x_offset), y: Int(iterator.y_offset), width: Int(iterator.width), height: Int(iterator.height))
            }
        }
    }
}
