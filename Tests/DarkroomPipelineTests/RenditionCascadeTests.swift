import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

@Suite("RenditionCascade: smaller renditions from a larger one's intermediate")
struct RenditionCascadeTests {
    static func cascade(_ chains: [String]) throws -> RenditionCascade {
        RenditionCascade(chains: try chains.map { try PipelineTestSupport.chain($0) })
    }

    /// PSNR over RGB of two encoded images of one size, in dB (infinity when identical).
    static func psnr(_ a: [UInt8], _ b: [UInt8]) throws -> Double {
        let first = try CoderRegistry.standard.decode(EncodedImage(bytes: a, sourceName: "a")).bitmap
        let second = try CoderRegistry.standard.decode(EncodedImage(bytes: b, sourceName: "b")).bitmap
        #expect(first.size == second.size)
        var squares = 0.0
        for y in 0..<first.height {
            for x in 0..<first.width {
                for channel in 0..<3 {
                    let difference =
                        Double(first.storage[y * first.bytesPerRow + x * 4 + channel])
                        - Double(second.storage[y * second.bytesPerRow + x * 4 + channel])
                    squares += difference * difference
                }
            }
        }
        let mse = squares / Double(first.width * first.height * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    @Test("Each downscale comes from the smallest larger downsample, in any order; lineages name the ancestors")
    func parents() throws {
        let sizes = try Self.cascade(["downsample(256x256)", "downsample(2048x2048)", "downsample(512x512)", "downsample(1024x1024)"])
        #expect(sizes.parents == [2, nil, 3, 1])
        #expect(sizes.levels(making: [0, 1, 2, 3]) == [[1], [3], [2], [0]])
        #expect(sizes.levels(making: [0]) == [[1], [3], [2], [0]])
        let chains = try ["downsample(256x256)", "downsample(2048x2048)", "downsample(512x512)", "downsample(1024x1024)"].map {
            try PipelineTestSupport.chain($0)
        }
        #expect(sizes.lineage(of: 1, chains: chains) == nil)
        #expect(sizes.lineage(of: 0, chains: chains) == "downsample.v1(2048x2048)>downsample.v1(1024x1024)>downsample.v1(512x512)")
        // A tie on area goes to the first in the job's order.
        #expect(try Self.cascade(["downsample(100x100)", "downsample(400x200)", "downsample(200x400)"]).parents == [1, nil, nil])
    }

    @Test("Only a downsample parents; resize(fit) may be a child; fill, one-sided past the box, equal boxes and other first processors stay on the decode")
    func qualifying() throws {
        #expect(try Self.cascade(["downsample(400x400)", "resize(200x200)", "resize(100x100, mode: fit)|>blur(1)"]).parents == [nil, 0, 0])
        #expect(try Self.cascade(["resize(400x400)", "downsample(200x200)"]).parents == [nil, nil])
        #expect(try Self.cascade(["downsample(400x400)", "resize(100x100, mode: fill)"]).parents == [nil, nil])
        #expect(try Self.cascade(["downsample(400x400)", "resize(100x100, mode: stretch)"]).parents == [nil, nil])
        #expect(try Self.cascade(["downsample(400x400)", "downsample(200x)", "downsample(x300)"]).parents == [nil, nil, nil])
        #expect(try Self.cascade(["downsample(400x)", "downsample(200x)"]).parents == [nil, 0])
        #expect(try Self.cascade(["downsample(400x400)", "downsample(400x400)"]).parents == [nil, nil])
        #expect(try Self.cascade(["downsample(400x400)", "blur(2)|>downsample(100x100)"]).parents == [nil, nil])
        #expect(try Self.cascade(["downsample(400x400)|>blur(2)", "downsample(100x100)"]).parents == [nil, 0])
    }

    @Test(
        "Four sizes run as a tree (a chain may go on after its downscale): each has its single job's size, ≥ 35 dB from it, a key naming its lineage; a retry remakes a lost one identically"
    )
    func tree() async throws {
        let dir = try TestImages.makeDirectory("cascade")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TestImages.write(try TestImages.gradient(.jpeg, width: 1600, height: 1000, tint: 40), to: "\(dir)/a.jpg")
        let source = SourceReference("\(dir)/a.jpg")
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy = .interactive
        configuration.diskCache = try DiskCache(directory: "\(dir)/cache")
        let chains = ["downsample(800x800)", "downsample(400x400)", "downsample(200x200)|>blur(1)", "resize(100x100)"]
        let renditions = try chains.enumerated().map { index, chain in
            RenditionRequest(name: "r\(index)", chain: try PipelineTestSupport.chain(chain), output: OutputOptions(format: .png))
        }

        let made = try await ImagePipeline(configuration: configuration).retrieveRenditions(source: source, renditions)
        #expect(made.cascade.parents == [nil, 0, 1, 2])
        #expect(!made.keys[0].contains("|decode=") && !made.keys[0].contains("|from="))
        #expect(made.keys[1].hasSuffix("|decode=fit:800x800|from=downsample.v1(800x800)"), "\(made.keys[1])")
        #expect(
            made.keys[3].hasSuffix("|decode=fit:800x800|from=downsample.v1(800x800)>downsample.v1(400x400)>downsample.v1(200x200)"),
            "\(made.keys[3])")
        var alone = configuration
        alone.diskCache = nil
        for (index, rendition) in renditions.enumerated() {
            let cascaded = try made.results[index].get()
            let single = try await ImagePipeline(configuration: alone).retrieve(
                ImageRequest(source: source, chain: rendition.chain, output: rendition.output))
            #expect(cascaded.size == single.size, "\(chains[index])")
            #expect(try Self.psnr(cascaded.bytes, single.bytes) >= 35, "\(chains[index])")
            if index == 0 { #expect(cascaded.bytes == single.bytes) }
        }

        // Lose the 200 and 100 px results: the retry makes them again from the intermediates of the
        // cached 800 and 400 px renditions (remade, not encoded), into the same bytes.
        for index in [2, 3] { try FileManager.default.removeItem(atPath: try #require(try made.results[index].get().cachePath)) }
        let retried = try await ImagePipeline(configuration: configuration).retrieveRenditions(source: source, renditions)
        #expect(retried.results.map { try? $0.get().origin } == [.disk, .disk, .miss, .miss])
        for index in [2, 3] { #expect(try retried.results[index].get().bytes == made.results[index].get().bytes) }
    }

    @Test("A rendition that does not qualify is made from the decode: no lineage in its key, its bytes those of a render without the cascade")
    func notQualifying() async throws {
        let dir = try TestImages.makeDirectory("cascade-not")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jpeg = try TestImages.gradient(.jpeg, width: 800, height: 600, tint: 70)
        try TestImages.write(jpeg, to: "\(dir)/a.jpg")
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy = .interactive
        let renditions = try ["downsample(400x400)", "resize(100x100, mode: fill)"].map {
            RenditionRequest(name: $0, chain: try PipelineTestSupport.chain($0), output: OutputOptions(format: .png))
        }
        let made = try await ImagePipeline(configuration: configuration).retrieveRenditions(
            source: SourceReference("\(dir)/a.jpg"), renditions)
        #expect(made.cascade.parents == [nil, nil])
        #expect(made.keys.allSatisfy { !$0.contains("|from=") })
        #expect(made.keys[1].hasSuffix("|decode=fill:400x400"), "\(made.keys[1])")
        let plain = try ImageRenderer().renderRenditions(
            EncodedImage(bytes: jpeg, sourceName: "a.jpg"), hint: made.decodeHint,
            renditions: renditions.map { (chain: $0.chain, output: $0.output) })
        #expect(try made.results[1].get().bytes == plain.results[1].get().bytes)
    }
}
