import DarkroomQueue
import Testing

@Suite("Output-name templates: one parser and renderer")
struct OutputNameTemplateTests {
    static let fields = OutputNameFields(stem: "cat", id: "0190-a", batch: "nightly", chain: "0123456789ab", ext: "webp")

    @Test(
        "Given a template, when rendered, then every field and literal brace takes its value",
        arguments: [
            ("{stem}.{ext}", "cat.webp"),
            ("{stem}-{chain}.{ext}", "cat-0123456789ab.webp"),
            ("{batch}-{id}.{ext}", "nightly-0190-a.webp"),
            ("{{{stem}}}.{ext}", "{cat}.webp"),
            ("thumb {stem}.{ext}", "thumb cat.webp"),
            ("{ext}", "webp"),
        ])
    func renders(template: String, expected: String) throws {
        #expect(try OutputNameTemplate(parsing: template).render(Self.fields) == expected)
    }

    @Test(
        "Given a bad template, when parsed, then it is refused with its code",
        arguments: [
            ("", OutputNameError.Code.empty),
            ("{stem}.{extension}", .unknownField),
            ("{}.{ext}", .unknownField),
            ("{stem.{ext}", .unbalancedBrace),
            ("{stem}}.{ext}", .unbalancedBrace),
            ("{stem}.{ext", .unbalancedBrace),
            ("out/{stem}.{ext}", .notAName),
            ("{stem}\u{0}.{ext}", .notAName),
            ("{stem}\t.{ext}", .notAName),
            ("{stem}.jpg", .noExtension),
            (".{stem}.{ext}", .hidden),
            (String(repeating: "x", count: 256) + "{ext}", .tooLong),
        ])
    func refuses(template: String, code: OutputNameError.Code) {
        #expect(throws: OutputNameError.self) { try OutputNameTemplate(parsing: template) }
        do {
            _ = try OutputNameTemplate(parsing: template)
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(!error.isTransient)
        }
    }

    @Test("A '/' is refused with a message saying a template is a name, not a path")
    func slashMessage() {
        #expect(throws: OutputNameError(.notAName, "output-name template 'a/{ext}' has '/': it names a file in the output directory, not a path")) {
            try OutputNameTemplate(parsing: "a/{ext}")
        }
    }

    @Test("A rendered name over 255 bytes or starting with '.' is refused when rendered")
    func renderLimits() throws {
        var long = Self.fields
        long.stem = String(repeating: "s", count: 200)
        let template = try OutputNameTemplate(parsing: "{stem}-{stem}.{ext}")
        #expect(throws: OutputNameError.self) { try template.render(long) }
        var dotted = Self.fields
        dotted.ext = ".x"
        #expect(throws: OutputNameError.self) { try OutputNameTemplate(parsing: "{ext}").render(dotted) }
    }

    @Test("Without an extension, {ext} renders as a NUL marker that no real name holds, counted as 4 bytes")
    func unknownExtension() throws {
        var fields = Self.fields
        fields.ext = nil
        #expect(try OutputNameTemplate.default.render(fields) == "cat.\u{0}")
        fields.stem = String(repeating: "s", count: 250)
        // 250 + "." + 4 = 255: still allowed; one more byte is not.
        #expect(try OutputNameTemplate.default.render(fields).utf8.count == 252)
        fields.stem += "s"
        #expect(throws: OutputNameError.self) { try OutputNameTemplate.default.render(fields) }
    }

    @Test("The default and collision templates are the documented ones, and a job's fields come from its record")
    func jobFields() throws {
        #expect(OutputNameTemplate.default.text == "{stem}.{ext}")
        #expect(OutputNameTemplate.collision.text == "{stem}-{chain}.{ext}")
        let job = Job(id: try #require(JobID(rawValue: "a/b")), batch: "b/1", source: "data:image/png;base64,AA", chain: "blur(2)")
        let fields = OutputNameFields(job: job, ext: "png")
        #expect(fields == OutputNameFields(stem: "a_b", id: "a_b", batch: "b_1", chain: ChainDigest.of("blur(2)"), ext: "png"))
        #expect(OutputNameTemplate.collision.fields == [.stem, .chain, .ext])
    }
}
