import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

/// `decodeFrames` reads a GIF's or WebP's header once and serves a still image or an animation:
/// what each branch gives must be what the separate entry points give.
@Suite("Decoding a file that may be animated")
struct DecodeFramesTests {
    typealias Kit = AnimationTestKit

    /// The still decode of `fixture`, through `decodeFrames`; nil when it read as an animation.
    private func still(_ fixture: String, with decoder: some AnimationDecoding, options: DecodeOptions = DecodeOptions()) throws -> DecodedImage? {
        let opened = try decoder.decodeFrames(Kit.encoded(PWGTestKit.fixture(fixture), fixture), options: options)
        switch consume opened {
        case .still(let decoded): return decoded
        case .animation: return nil
        }
    }

    /// The header of `fixture` as `decodeFrames` opens it; nil when it read as a still image.
    private func animationInfo(_ fixture: String, with decoder: some AnimationDecoding) throws -> AnimationInfo? {
        let opened = try decoder.decodeFrames(Kit.encoded(PWGTestKit.fixture(fixture), fixture), options: DecodeOptions())
        switch consume opened {
        case .still: return nil
        case .animation(let reader): return reader.info
        }
    }

    @Test(
        "Given a still GIF or WebP, when opened, then it is decoded exactly as the still decoder decodes it",
        arguments: ["gif/still.gif", "gif/transparent.gif", "gif/interlaced.gif", "webp/lossy.webp", "webp/lossless-alpha.webp", "webp/icc.webp"])
    func stillImages(fixture: String) throws {
        let decoder: any AnimationDecoding = fixture.hasSuffix(".gif") ? GIFDecoder() : WebPDecoder()
        let opened = try #require(try still(fixture, with: decoder))
        let decoded = try decoder.decode(Kit.encoded(PWGTestKit.fixture(fixture), fixture), options: DecodeOptions())
        #expect(opened.info == decoded.info)
        try #require(opened.bitmap.size == decoded.bitmap.size)
        #expect(opened.bitmap.isOpaque == decoded.bitmap.isOpaque)
        #expect(Kit.difference(opened.bitmap, decoded.bitmap).worstColor == 0)
    }

    @Test("Given a still WebP and a shrink-on-load hint, when opened, then the hint applies as in the still decoder")
    func hintApplies() throws {
        let options = DecodeOptions(hint: DecodeHint(box: PixelSize(width: 8, height: 8), mode: .fit))
        let opened = try #require(try still("webp/lossy.webp", with: WebPDecoder(), options: options))
        let decoded = try WebPDecoder().decode(Kit.encoded(PWGTestKit.fixture("webp/lossy.webp"), "lossy"), options: options)
        #expect(opened.bitmap.size == decoded.bitmap.size)
        #expect(opened.bitmap.sizeBeforeShrinkOnLoad == decoded.bitmap.sizeBeforeShrinkOnLoad)
    }

    @Test(
        "Given an animated GIF or WebP, when opened, then its frames are handed out with the header readAnimationInfo reads",
        arguments: ["gif/anim3.gif", "webp/anim.webp"])
    func animations(fixture: String) throws {
        let decoder: any AnimationDecoding = fixture.hasSuffix(".gif") ? GIFDecoder() : WebPDecoder()
        let info = try #require(try animationInfo(fixture, with: decoder))
        #expect(info == (try decoder.readAnimationInfo(Kit.encoded(PWGTestKit.fixture(fixture), fixture), limits: DecodeLimits())))
        #expect(info.frameCount > 1)
    }

    @Test("Given a GIF, when decoded after its survey, then the rewound walk reads the same first frame as a fresh open")
    func rewoundWalk() throws {
        let bytes = Kit.disposalGIF()
        let decoded = try GIFDecoder().decode(Kit.encoded(bytes, "d.gif"), options: DecodeOptions())
        var reader = try GIFDecoder().animationFrames(of: Kit.encoded(bytes, "d.gif"), options: DecodeOptions())
        let first = try #require(try reader.next())
        #expect(decoded.info.frameCount == 5)
        try #require(decoded.bitmap.size == first.bitmap.size)
        #expect(Kit.difference(decoded.bitmap, first.bitmap).worstColor == 0)
    }
}
