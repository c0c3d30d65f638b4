import DarkroomQueue
import Testing

@Suite("Bucket capabilities: s3:ALIAS@BUCKET")
struct CapabilitiesBucketsTests {
    @Test("Given s3:// sources and outputs, then each requires its bucket with the alias written, default when none is")
    func requirements() {
        #expect(Capabilities.sourceRequirements("s3://uploads/2026/a.jpg") == ["source:s3", "s3:default@uploads"])
        #expect(Capabilities.sourceRequirements("S3://media@Photos_1/a.jpg") == ["source:s3", "s3:media@Photos_1"])
        #expect(
            Capabilities.sourceRequirements("s3://media@photos;etag=9b2c-3/a.jpg") == ["source:s3", "s3:media@photos"], "a pinned ETag is not the bucket's")
        #expect(Capabilities.outputRequirements("s3://thumbs/2026/") == ["output:s3", "s3:default@thumbs"])
        #expect(Capabilities.sourceRequirements("/in/a.jpg").isEmpty)
        #expect(Capabilities.bucketRequirement("https://example.com/a.jpg") == nil)
    }

    @Test("Given a bucket part that is no bucket, then only source:s3 is required, and the worker refuses the source itself")
    func malformed() {
        for text in ["s3://a@b@c/k", "s3://UPPER@bucket/k", "s3://bu cket/k", "s3:///k", "s3://x@/k"] {
            #expect(Capabilities.bucketRequirement(text) == nil, "\(text)")
            #expect(Capabilities.sourceRequirements(text) == ["source:s3"], "\(text)")
        }
    }

    @Test("Given a name past 64 bytes, then the capability is its digest form, valid, stable and distinct")
    func digests() {
        let long = String(repeating: "b", count: 63)
        let name = Capabilities.bucket(alias: "archive-eu-west", name: long)
        #expect(name.hasPrefix("s3:fnv:") && name.utf8.count == 23 && !name.contains("@"), "\(name)")
        #expect(Capabilities.isValidName(name))
        #expect(name == Capabilities.bucket(alias: "archive-eu-west", name: long))
        #expect(name != Capabilities.bucket(alias: "archive-eu-west", name: String(repeating: "c", count: 63)))
        #expect(Capabilities.bucketRequirement("s3://archive-eu-west@\(long)/k") == name)
        let fits = Capabilities.bucket(alias: "default", name: String(repeating: "b", count: 53))
        #expect(fits.utf8.count == 64 && fits.hasPrefix("s3:default@"), "64 bytes is the plain form still")
        #expect(Capabilities.isValidName(fits))
    }

    @Test("Given a job reading one bucket and writing another, then a worker must allow both to be handed it")
    func routing() {
        let requires = Capabilities.canonical(
            Capabilities.sourceRequirements("s3://uploads/a.jpg") + Capabilities.outputRequirements("s3://thumbs/x/"))
        let both: Set<String> = ["source:s3", "output:s3", "s3:default@uploads", "s3:default@thumbs"]
        #expect(Capabilities.satisfies(both, requires))
        #expect(!Capabilities.satisfies(both.subtracting(["s3:default@thumbs"]), requires))
    }
}
