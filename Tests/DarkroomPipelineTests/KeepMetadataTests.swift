import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomPipeline

/// `keep` end to end: a photo made with exiftool from a repository fixture (orientation 6, an
/// Adobe RGB profile, Make, Artist, Copyright, GPS, an IFD1 thumbnail, XMP with a creator and GPS)
/// rendered to JPEG, PNG and WebP, then read back by exiftool and by Darkroom's own decoders.
@Suite("Metadata and colour kept on request, read back with exiftool", .realTime)
struct KeepMetadataTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DarkroomCodecsTests/Fixtures/jpeg")

    /// Runs exiftool; its standard output. A missing exiftool fails the test: it is a test
    /// dependency (`scripts/install-packages test`).
    @discardableResult
    static func exiftool(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "exiftool \(arguments) exited \(process.terminationStatus)")
        return data
    }

    /// exiftool's `-j -G1 -a` record of `bytes`, written to `directory`.
    static func tags(_ bytes: [UInt8], _ name: String, in directory: String) throws -> [String: Any] {
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let json = try JSONSerialization.jsonObject(with: try exiftool(["-j", "-G1", "-a", path])) as? [[String: Any]]
        return try #require(json?.first)
    }

    /// The tagged source photo and its profile's bytes.
    static func source(in directory: String) throws -> (photo: [UInt8], profile: [UInt8]) {
        let photo = directory + "/source.jpg"
        let profile = directory + "/profile.icc"
        try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent("orientation-6.jpg").path, toPath: photo)
        let iccBytes = try exiftool(["-b", "-ICC_Profile", fixtures.appendingPathComponent("adobergb.jpg").path])
        try iccBytes.write(to: URL(fileURLWithPath: profile))
        try exiftool([
            "-overwrite_original", "-Copyright=(c) Ann Example", "-Artist=Ann Example", "-Make=Canon",
            "-GPSLatitude=48.85", "-GPSLatitudeRef=N", "-GPSLongitude=2.35", "-GPSLongitudeRef=E",
            "-XMP-dc:Creator=Ann Example", "-XMP-exif:GPSLatitude=48.85 N", "-XMP-exif:GPSLongitude=2.35 E",
            "-ThumbnailImage<=" + fixtures.appendingPathComponent("scene-420.jpg").path, "-ICC_Profile<=" + profile, photo,
        ])
        return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: photo))), [UInt8](iccBytes))
    }

    static func render(_ photo: [UInt8], format: ImageFormat, keep: MetadataKeep) throws -> RenderResult {
        try ImageRenderer().render(
            RenderRequest(
                source: EncodedImage(bytes: photo, sourceName: "source.jpg"), chain: try PipelineTestSupport.chain("blur(1)"),
                output: OutputOptions(format: format, keep: keep)))
    }

    @Test(
        "Given a tagged photo, when rendered keeping icc, exif and xmp, then each format carries the profile, the EXIF without orientation, thumbnail or GPS, and the XMP without GPS",
        arguments: [ImageFormat.jpeg, .png, .webp, .avif])
    func keepsIntoEveryFormat(format: ImageFormat) throws {
        let directory = try TestImages.makeDirectory("keep")
        let source = try Self.source(in: directory)
        let result = try Self.render(source.photo, format: format, keep: [.icc, .exif, .xmp])
        #expect(result.size == PixelSize(width: 64, height: 48), "turned upright")
        let tags = try Self.tags(result.bytes, "out." + format.fileExtension, in: directory)
        #expect(tags["IFD0:Copyright"] as? String == "(c) Ann Example")
        #expect(tags["IFD0:Artist"] as? String == "Ann Example")
        #expect(tags["IFD0:Make"] as? String == "Canon")
        #expect(tags["IFD0:Orientation"] as? String == "Horizontal (normal)")
        #expect(!tags.keys.contains { $0.hasPrefix("GPS:") || $0.hasPrefix("IFD1:") || $0.hasPrefix("XMP-exif:GPS") }, "\(tags.keys.sorted())")
        #expect(tags["XMP-dc:Creator"] as? String == "Ann Example")
        #expect((tags["ICC_Profile:ProfileDescription"] as? String)?.contains("A98") == true)
        // Darkroom reads back the very profile bytes it was given.
        let back = try CoderRegistry.standard.decode(EncodedImage(bytes: result.bytes, sourceName: "out"), options: DecodeOptions(keep: [.icc]))
        #expect(back.metadata.icc == source.profile)
    }

    @Test(
        "Given an AVIF that kept a photo's profile, EXIF and XMP, when it is the source of a job keeping them, then they reach the next output, oriented once"
    )
    func avifSourceKeeps() throws {
        let directory = try TestImages.makeDirectory("keep-avif")
        let source = try Self.source(in: directory)
        let avif = try Self.render(source.photo, format: .avif, keep: [.icc, .exif, .xmp]).bytes
        let again = try ImageRenderer().render(
            RenderRequest(
                source: EncodedImage(bytes: avif, sourceName: "kept.avif"), chain: try PipelineTestSupport.chain("blur(1)"),
                output: OutputOptions(format: .jpeg, keep: [.icc, .exif, .xmp])))
        #expect(again.size == PixelSize(width: 64, height: 48), "the AVIF's EXIF says orientation 1 and it has no irot: not turned again")
        let tags = try Self.tags(again.bytes, "again.jpg", in: directory)
        #expect(tags["IFD0:Copyright"] as? String == "(c) Ann Example")
        #expect(tags["IFD0:Orientation"] as? String == "Horizontal (normal)")
        #expect(tags["XMP-dc:Creator"] as? String == "Ann Example")
        let back = try CoderRegistry.standard.decode(EncodedImage(bytes: again.bytes, sourceName: "again"), options: DecodeOptions(keep: [.icc]))
        #expect(back.metadata.icc == source.profile)
    }

    @Test("With gps added, GPS stays in EXIF and XMP; copyright alone keeps only Copyright and Artist")
    func gpsAndCopyright() throws {
        let directory = try TestImages.makeDirectory("keep")
        let source = try Self.source(in: directory)
        let withGPS = try Self.tags(try Self.render(source.photo, format: .jpeg, keep: [.exif, .xmp, .gps]).bytes, "gps.jpg", in: directory)
        #expect(withGPS["GPS:GPSLatitudeRef"] as? String == "North")
        #expect(withGPS["XMP-exif:GPSLatitude"] != nil)
        #expect(withGPS["ICC_Profile:ProfileDescription"] == nil, "icc not asked for: converted to sRGB")

        let copyright = try Self.tags(try Self.render(source.photo, format: .webp, keep: [.copyright]).bytes, "c.webp", in: directory)
        let kept = copyright.keys.filter { $0.hasPrefix("IFD0:") || $0.hasPrefix("XMP") || $0.hasPrefix("GPS") || $0.hasPrefix("ExifIFD") }
        #expect(Set(kept) == ["IFD0:Copyright", "IFD0:Artist"], "\(kept)")
    }

    @Test(
        "Given an animated WebP tagged with a profile, when every frame is rendered keeping icc, then the animation carries the profile and its frames were not converted"
    )
    func animationKeepsProfile() throws {
        let directory = try TestImages.makeDirectory("keep-animation")
        let profile = try Self.source(in: directory).profile
        var encoder = try AnimatedWebPEncoder(
            canvasSize: PixelSize(width: 16, height: 16), options: EncodeOptions(lossless: true, embedded: ImageMetadata(icc: profile)))
        let frames = try [40, 200].map { level in
            try Bitmap(width: 16, height: 16, isOpaque: true) { buffer, _ in
                for index in stride(from: 0, to: buffer.count, by: 4) {
                    buffer[index] = UInt8(level)
                    buffer[index + 1] = 90
                    buffer[index + 2] = 30
                    buffer[index + 3] = 255
                }
            }
        }
        try encoder.add(frames.map { ($0, 100) })
        let animation = try encoder.finish()
        let request = RenderRequest(
            source: EncodedImage(bytes: animation, sourceName: "a.webp"), chain: ProcessorChain(),
            output: OutputOptions(format: .webp, encoding: EncodeOptions(lossless: true), keep: [.icc]))
        let kept = try ImageRenderer().render(request)
        let tags = try Self.tags(kept.bytes, "kept.webp", in: directory)
        #expect((tags["ICC_Profile:ProfileDescription"] as? String)?.contains("A98") == true)
        var reader = try WebPDecoder().animationFrames(of: EncodedImage(bytes: kept.bytes, sourceName: "kept"), options: DecodeOptions(keep: [.icc]))
        #expect(reader.metadata.icc == profile)
        let first = try #require(try reader.next()).bitmap
        first.withUnsafeBytes { #expect(Array($0.prefix(4)) == [40, 90, 30, 255], "the frame's values, not converted") }
        // Without keep the frames are converted to sRGB and the profile is gone.
        var plain = request
        plain.output.keep = []
        let converted = try ImageRenderer().render(plain)
        let back = try WebPDecoder().animationFrames(of: EncodedImage(bytes: converted.bytes, sourceName: "c"), options: DecodeOptions(keep: [.icc]))
        #expect(back.metadata.icc == nil)
    }

    @Test("By default nothing is kept: no EXIF, XMP or profile, and the cache key is what it always was")
    func defaultKeepsNothing() throws {
        let directory = try TestImages.makeDirectory("keep")
        let source = try Self.source(in: directory)
        for format in [ImageFormat.jpeg, .png, .webp, .avif] {
            let tags = try Self.tags(try Self.render(source.photo, format: format, keep: []).bytes, "d." + format.fileExtension, in: directory)
            #expect(!tags.keys.contains { $0.hasPrefix("IFD0:") || $0.hasPrefix("XMP") || $0.hasPrefix("ICC") }, "\(tags.keys.sorted())")
        }
        let plain = ImageRequest(source: SourceReference("a.jpg"), chain: ProcessorChain())
        #expect(!plain.outputKey.contains("keep"))
        var keeping = plain
        keeping.output.keep = [.xmp, .icc]
        #expect(keeping.outputKey == plain.outputKey + ";keep=icc+xmp")
    }
}
