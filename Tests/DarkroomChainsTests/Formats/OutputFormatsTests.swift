import DarkroomChains
import Testing

@Suite("Output format names")
struct OutputFormatsTests {
    @Test(
        "Given a spelling of a standard format, when checked, then it is the canonical name",
        arguments: [("jpeg", "jpeg"), ("JPG", "jpeg"), ("jpe", "jpeg"), ("png", "png"), ("WebP", "webp")])
    func standardSpellings(name: String, canonical: String) {
        #expect(OutputFormats.standard.canonicalName(name) == canonical)
    }

    @Test("GIF is read but never written, and an unknown name is nobody's", arguments: ["gif", "tiff", "", "jpegx"])
    func notWritten(name: String) {
        #expect(OutputFormats.standard.canonicalName(name) == nil)
    }

    @Test("Given a plugin's format, when added, then it is known lower-case, once, after the standard ones")
    func pluginFormats() {
        let formats = OutputFormats(OutputFormats.standard.names + ["QOI", "qoi"])
        #expect(formats.names == ["jpeg", "png", "webp", "avif", "qoi"])
        #expect(formats.canonicalName("Qoi") == "qoi")
    }
}
