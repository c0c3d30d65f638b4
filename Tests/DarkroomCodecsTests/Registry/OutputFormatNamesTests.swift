import DarkroomChains
import DarkroomCodecs
import Testing

/// The client library checks formats against names (`OutputFormats`), the workers against
/// encoders (`CoderRegistry`): both must accept the same spellings.
@Suite("Output format names agree with the encoders")
struct OutputFormatNamesTests {
    @Test("The standard encoders write exactly the standard format names")
    func standardNames() {
        #expect(CoderRegistry.standard.outputFormats == OutputFormats.standard)
    }

    @Test(
        "Every spelling is accepted by both or by neither, as the same format",
        arguments: ["jpeg", "JPEG", "jpg", "Jpg", "jpe", "png", "webp", "WEBP", "gif", "tiff", "avif", "", "jpegx"])
    func sameSpellings(name: String) {
        #expect(OutputFormats.standard.canonicalName(name) == CoderRegistry.standard.writableFormat(named: name)?.rawValue)
    }
}
