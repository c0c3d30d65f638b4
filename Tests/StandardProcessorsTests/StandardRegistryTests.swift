import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import Testing

@Suite("The standard plugin's registry")
struct StandardRegistryTests {
    @Test("Every standard processor is registered under the name the chain syntax documents")
    func allNames() {
        let names = Set(StandardProcessors.registry.all.map(\.name))
        #expect(
            names == [
                "downsample", "resize", "crop", "roundCorner", "blur", "tint", "overlay",
                "colorControls", "blackWhite", "border", "blend", "rotate", "flip", "trim", "extend", "pixelate", "smartCrop", "sharpen",
                "watermark",
            ])
    }

    @Test(
        "Each processor built from text reports the name and version of its descriptor",
        arguments: [
            "downsample(10x10)", "resize(10x10)", "crop(10x10)", "roundCorner(4)", "blur(1)", "tint(#FF000080)",
            "overlay(#00FF00)", "colorControls", "blackWhite", "border(2, #000000)", "blend(multiply, #808080)",
            "rotate(30)", "flip(horizontal)", "trim", "extend(10x10)", "pixelate(4)", "smartCrop(10x10)", "sharpen",
            #"watermark("logo.png")"#,
        ])
    func versionsAgree(text: String) throws {
        let registry = StandardProcessors.registry
        let processor = try #require(try registry.chain(from: text).processors.first)
        let descriptor = try #require(registry.descriptor(named: processor.invocation.name))
        #expect(processor.invocation.version == descriptor.version)
        #expect(processor.identifier.hasPrefix("\(descriptor.name).v\(descriptor.version)"))
    }

    @Test("The Swift DSL in the README names the same chain as its text")
    func swiftDSL() throws {
        let chain = .downsample(to: PixelSize(width: 400, height: 400)) |> .roundCorner(radius: 20) |> .blur(radius: 4)
        let parsed = try StandardProcessors.registry.chain(from: "downsample(400x400)|>roundCorner(20)|>blur(4)")
        #expect(chain.identifier == parsed.identifier)
        #expect(chain.decodeHint == DecodeHint(box: PixelSize(width: 400, height: 400), mode: .fit))
        #expect(chain.introducesTransparency)
    }
}
