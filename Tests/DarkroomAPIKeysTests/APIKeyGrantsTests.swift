import DarkroomQueue
import Testing

@testable import DarkroomAPIKeys

@Suite("Grants: a key permits only what it names, and says what it lacks with a code")
struct APIKeyGrantsTests {
    static func key(
        scopes: Set<APIScope> = [.submit], sources: [String] = APIKeyGrants.defaultSources, outputs: [String] = [],
        webhooks: [String] = [], maxPriority: JobPriority = .normal
    ) -> APIKey {
        APIKey(
            id: "dk_test0001", name: "test", scopes: scopes,
            grants: APIKeyGrants(sources: sources, outputs: outputs, webhooks: webhooks, maxPriority: maxPriority),
            createdAt: Timestamp(millisecondsSince1970: 0))
    }

    /// The code `body` throws, nil when it throws nothing (`unknown` for an error of another type).
    func code(_ body: () throws -> Void) -> APIKeyError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? APIKeyError)?.code ?? .unknown
        }
    }

    @Test("Scopes: each has itself, admin has read too but not submit")
    func scopes() {
        let admin = Self.key(scopes: [.admin])
        #expect(admin.has(scope: .admin) && admin.has(scope: .read) && !admin.has(scope: .submit))
        let submitter = Self.key(scopes: [.submit])
        #expect(code { try submitter.permits(scope: .read) } == .scopeMissing)
        #expect(code { try submitter.permits(scope: .submit) } == nil)
        #expect(admin.mayAccess(ownedBy: "dk_other000") && admin.mayAccess(ownedBy: nil))
        #expect(submitter.mayAccess(ownedBy: "dk_test0001") && !submitter.mayAccess(ownedBy: "dk_other000") && !submitter.mayAccess(ownedBy: nil))
    }

    @Test("A dashboard session is admin: it reads everyone's work and may submit nothing")
    func dashboardSession() {
        let session = APIKey.dashboardSession()
        #expect(session.has(scope: .admin) && session.has(scope: .read) && !session.has(scope: .submit))
        #expect(session.mayAccess(ownedBy: "dk_other000"))
        #expect(!APIKeyToken.isKeyID(session.id))
        #expect(code { try session.permits(source: "https://a.example/x.jpg") } == .sourceNotGranted)
    }

    @Test("The default sources are http, https and data; never a file or a plugin scheme")
    func defaultSources() {
        let key = Self.key()
        for source in ["https://a.example/x.jpg", "HTTP://a.example/x.jpg", "data:image/png;base64,AAAA"] {
            #expect(code { try key.permits(source: source) } == nil, "\(source)")
        }
        for source in ["/srv/a.jpg", "file:///srv/a.jpg", "acme://bucket/a.jpg", "relative.jpg"] {
            #expect(code { try key.permits(source: source) } == .sourceNotGranted, "\(source)")
        }
    }

    @Test("A URL prefix is compared by scheme, host, port and whole path segments")
    func urlPrefixes() {
        let key = Self.key(sources: ["https://images.example.com/uploads/", "http://cdn.example.com:8080/a"])
        let allowed = [
            "https://images.example.com/uploads/x.jpg", "https://IMAGES.example.com:443/uploads/x.jpg", "https://images.example.com/uploads",
            "http://cdn.example.com:8080/a/b.png", "http://cdn.example.com:8080/a?x=1",
        ]
        for source in allowed { #expect(code { try key.permits(source: source) } == nil, "\(source)") }
        let refused = [
            "https://images.example.com/uploadsX/x.jpg", "https://images.example.com.evil/uploads/x.jpg",
            "https://images.example.com@evil/uploads/x.jpg", "https://images.example.com/uploads/../secret",
            "https://images.example.com/uploads/%2e%2e/secret", "https://images.example.com/uploads%2Fx",
            "http://images.example.com/uploads/x.jpg", "https://images.example.com:8443/uploads/x.jpg", "http://cdn.example.com/a/b.png",
            "https://images.example.com/uploads\\..\\x",
        ]
        for source in refused { #expect(code { try key.permits(source: source) } == .sourceNotGranted, "\(source)") }
    }

    @Test("File sources need a file grant: a directory covers paths and file URLs under it, in plain form")
    func fileSources() {
        let key = Self.key(sources: ["/srv/uploads/"])
        for source in ["/srv/uploads/a.jpg", "/srv/uploads/sub/b.png", "file:///srv/uploads/a.jpg", "file://localhost/srv/uploads/a.jpg"] {
            #expect(code { try key.permits(source: source) } == nil, "\(source)")
        }
        for source in [
            "/srv/uploadsX/a.jpg", "/srv/uploads/../etc/passwd", "/srv/./uploads/a.jpg", "uploads/a.jpg", "file://host/srv/uploads/a.jpg",
            "file:///srv/uploads/%2e%2e/x", "https://a.example/x.jpg",
        ] {
            #expect(code { try key.permits(source: source) } == .sourceNotGranted, "\(source)")
        }
        let wholeScheme = Self.key(sources: ["file:"])
        #expect(code { try wholeScheme.permits(source: "/anything/at/all.jpg") } == nil)
    }

    @Test("The refusal of a file source says files are not granted, and never quotes credentials")
    func messages() throws {
        let key = Self.key()
        do {
            try key.permits(source: "/etc/passwd")
            Issue.record("permitted")
        } catch {
            #expect(error.message.contains("not granted file sources"))
            #expect(error.httpStatus == 403)
        }
        do {
            try key.permits(source: "ftp://user:hunter2@files.example/x.jpg")
            Issue.record("permitted")
        } catch {
            #expect(!error.message.contains("hunter2"))
            #expect(error.message.contains("'data:', 'http:', 'https:'"))
        }
    }

    @Test("Outputs: none needs no grant; a directory must be under an output grant")
    func outputs() {
        let key = Self.key(outputs: ["/srv/out/api"])
        #expect(code { try key.permits(output: nil) } == nil)
        #expect(code { try key.permits(output: "/srv/out/api") } == nil)
        #expect(code { try key.permits(output: "/srv/out/api/2026/11") } == nil)
        for output in ["/srv/out/apix", "/srv/out", "/srv/out/api/../../etc", "out/api", "s3://bucket/x"] {
            #expect(code { try key.permits(output: output) } == .outputNotGranted, "\(output)")
        }
        #expect(code { try Self.key().permits(output: "/srv/out/api") } == .outputNotGranted)
    }

    @Test("Outputs in object storage: an s3:// output must be under an s3:// output grant; other URL grants are invalid")
    func objectStorageOutputs() {
        let key = Self.key(outputs: ["s3://thumbs/api/"])
        #expect(code { try key.permits(output: "s3://thumbs/api/") } == nil)
        #expect(code { try key.permits(output: "s3://thumbs/api/2026/11/") } == nil)
        for output in ["s3://thumbs/apix/", "s3://other/api/", "s3://thumbs/", "/srv/out/api"] {
            #expect(code { try key.permits(output: output) } == .outputNotGranted, "\(output)")
        }
        #expect(code { _ = try APIKeyGrants(outputs: ["s3://thumbs/api/"]).validated() } == nil)
        #expect(code { _ = try APIKeyGrants(outputs: ["https://cdn.example.com/out/"]).validated() } == .invalid)
    }

    @Test("Priority: at most the key's highest")
    func priority() {
        let key = Self.key(maxPriority: .normal)
        #expect(code { try key.permits(priority: .low) } == nil)
        #expect(code { try key.permits(priority: .normal) } == nil)
        #expect(code { try key.permits(priority: .high) } == .priorityNotGranted)
        #expect(code { try Self.key(maxPriority: .high).permits(priority: .high) } == nil)
    }

    @Test("Webhooks: only the names granted")
    func webhooks() {
        let key = Self.key(webhooks: ["orders"])
        #expect(code { try key.permits(webhook: "orders") } == nil)
        #expect(code { try key.permits(webhook: "billing") } == .webhookNotGranted)
    }

    @Test("A job is checked for the submit scope, its source, output and priority")
    func jobs() {
        let key = Self.key(sources: ["https:"], outputs: ["/srv/out"])
        func job(source: String = "https://a.example/x.jpg", output: String? = nil, priority: JobPriority = .normal) -> Job {
            Job(id: JobID(rawValue: "j1")!, batch: "b", source: source, chain: "blur(2)", priority: priority, output: output)
        }
        #expect(code { try key.permits(job: job()) } == nil)
        #expect(code { try key.permits(job: job(source: "/etc/passwd")) } == .sourceNotGranted)
        #expect(code { try key.permits(job: job(output: "/tmp")) } == .outputNotGranted)
        #expect(code { try key.permits(job: job(priority: .high)) } == .priorityNotGranted)
        #expect(code { try Self.key(scopes: [.read], sources: ["https:"]).permits(job: job()) } == .scopeMissing)
    }

    @Test("Grants are stored canonical: schemes lower-cased, sorted, without duplicates")
    func canonical() throws {
        let grants = try APIKeyGrants(sources: ["HTTPS:", "https:", "/srv/a"], outputs: ["/b", "/a"], webhooks: ["z", "a"]).validated()
        #expect(grants.sources == ["/srv/a", "https:"])
        #expect(grants.outputs == ["/a", "/b"])
        #expect(grants.webhooks == ["a", "z"])
    }
}
