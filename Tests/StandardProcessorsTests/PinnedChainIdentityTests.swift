import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import Testing

/// Chains written before focal points and aspect ratios existed keep their canonical text (what
/// job records store) and identifier (the chain part of every cache key: `source@identifier#output`).
/// The values were taken from the code before `focus:` and `aspect:` were added: an optional
/// parameter left out must print nothing.
@Suite("Existing crop, resize and extend chains keep their canonical text and cache identity")
struct PinnedChainIdentityTests {
    @Test(
        "Given a chain without focus or aspect, then worker and client print the text and identifier pinned before they existed",
        arguments: [
            ("crop(400x300)", "crop(400x300, anchor: center)", "crop.v1(400x300, anchor: center)"),
            ("crop(200x100, anchor: topLeft)", "crop(200x100, anchor: topLeft)", "crop.v1(200x100, anchor: topLeft)"),
            ("crop(x300, (0.25, 0.75))", "crop(x300, anchor: (0.25, 0.75))", "crop.v1(x300, anchor: (0.25, 0.75))"),
            ("resize(400x300, mode: fill)", "resize(400x300, mode: fill, anchor: center)", "resize.v1(400x300, mode: fill, anchor: center)"),
            (
                "resize(10x10, fill, bottomRight)", "resize(10x10, mode: fill, anchor: bottomRight)",
                "resize.v1(10x10, mode: fill, anchor: bottomRight)"
            ),
            ("resize(400x)", "resize(400x, mode: fit, anchor: center)", "resize.v1(400x, mode: fit, anchor: center)"),
            (
                "extend(800x600)", "extend(800x600, anchor: center, color: #00000000)",
                "extend.v1(800x600, anchor: center, color: #00000000)"
            ),
            (
                "extend(800x, color: #ffffff)", "extend(800x, anchor: center, color: #FFFFFFFF)",
                "extend.v1(800x, anchor: center, color: #FFFFFFFF)"
            ),
            (
                "downsample(400x400)|>crop(100x100)", "downsample(400x400)|>crop(100x100, anchor: center)",
                "downsample.v1(400x400)|>crop.v1(100x100, anchor: center)"
            ),
        ])
    func pinned(text: String, canonical: String, identifier: String) throws {
        let chain = try StandardProcessors.registry.chain(from: text)
        #expect(chain.canonicalText == canonical)
        #expect(chain.identifier == identifier)
        #expect(try StandardProcessorSpecs.catalog.canonicalText(of: text) == canonical)
    }
}
