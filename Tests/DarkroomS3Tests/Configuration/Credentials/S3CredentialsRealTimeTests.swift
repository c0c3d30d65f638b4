import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomS3

/// Credentials resolved per request, against moto checking every signature.
@Suite("Credentials files and web identity against moto", .realTime)
struct S3CredentialsRealTimeTests {
    static let pool = BlockingWorkPool(threadCount: 2)

    /// The kind of the error `body` throws, nil when it throws none.
    func failure<T>(_ body: () async throws(S3Error) -> T) async -> S3Error? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test("A wrong secret in the file fails with .credentials; the fixed file works without a restart")
    func fileFixedWhileRunning() async throws {
        let moto = try await MotoS3Server()
        defer { moto.stop() }
        try await moto.createBucket("darkroom-credentials")
        let files = try CredentialsTestFiles("moto-file")
        defer { files.remove() }
        let right = moto.credentials
        let path = try files.write("credentials", CredentialsTestFiles.profile(id: right.accessKeyID, secret: "WRONGSECRET"))
        var endpoint = moto.endpoint()
        endpoint.credentialsSource = S3CredentialsSource(resolver: S3CredentialsFile(path: path, profile: "default"))
        let client = S3Client(endpoint: endpoint, pool: Self.pool)
        let put = { () async throws(S3Error) in
            try await client.putObject(bucket: "darkroom-credentials", key: "k", bytes: [1, 2, 3], contentType: nil, cacheControl: nil)
        }
        let refused = try #require(await failure(put))
        #expect(refused.kind == .credentials && refused.isTransient)
        #expect(!refused.message.contains("WRONGSECRET") && !refused.message.contains(right.secretAccessKey))

        try files.write("credentials", CredentialsTestFiles.profile(id: right.accessKeyID, secret: right.secretAccessKey))
        _ = try await put()

        try FileManager.default.removeItem(atPath: path)
        let gone = try #require(await failure(put))
        #expect(gone.kind == .credentials && gone.message.contains("credentials file '\(path)' does not exist"), "\(gone.message)")
        try files.write("credentials", CredentialsTestFiles.profile(id: right.accessKeyID, secret: right.secretAccessKey))
        _ = try await put()
    }

    @Test("Web identity: moto's STS gives temporary credentials its S3 accepts; they are fetched again before they expire")
    func webIdentity() async throws {
        let moto = try await MotoS3Server()
        defer { moto.stop() }
        try await moto.createBucket("darkroom-web-identity")
        let role = try await moto.createRole("darkroom-workers")
        let files = try CredentialsTestFiles("web-identity")
        defer { files.remove() }
        let token = try files.write("token", "eyJhbGciOi.WEBIDENTITYTOKEN.c2ln\n")
        let resolver = S3WebIdentityCredentials(tokenFile: token, roleARN: role, sessionName: "darkroom-test", stsURL: moto.origin)
        let first = try resolver.credentials()
        #expect(first.sessionToken != nil && first.accessKeyID != moto.credentials.accessKeyID)
        #expect(try resolver.credentials() == first, "fresh: not fetched again")
        resolver.refused()
        let again = try resolver.credentials()
        #expect(again.accessKeyID != first.accessKeyID, "refused: fetched again")
        resolver.refused()
        #expect(try resolver.credentials() == again, "at most one fetch a refusal causes per 10 s")

        var endpoint = moto.endpoint()
        endpoint.credentialsSource = S3CredentialsSource(resolver: resolver)
        let client = S3Client(endpoint: endpoint, pool: Self.pool)
        let etag = try await client.putObject(bucket: "darkroom-web-identity", key: "k", bytes: [7], contentType: nil, cacheControl: nil)
        #expect(try await client.headObject(bucket: "darkroom-web-identity", key: "k").etag == etag)

        // moto's credentials last an hour: with a margin of 3,598 s they are due 2 s after each fetch.
        let refreshing = S3WebIdentityCredentials(
            tokenFile: token, roleARN: role, sessionName: "darkroom-test", stsURL: moto.origin, refreshMargin: 3598)
        let before = try refreshing.credentials()
        #expect(try refreshing.credentials() == before)
        try await Task.sleep(for: .seconds(3))
        let after = try refreshing.credentials()
        #expect(after.accessKeyID != before.accessKeyID, "fetched again inside the refresh margin")

        for text in [String(describing: endpoint), "\(resolver)"] {
            #expect(!text.contains("WEBIDENTITYTOKEN") && !text.contains(first.secretAccessKey) && !text.contains(first.sessionToken ?? "-"))
        }
    }

    @Test("STS unreachable or refusing: .credentials (transient), naming the role, never the token")
    func stsFailures() async throws {
        let files = try CredentialsTestFiles("sts-failures")
        defer { files.remove() }
        let token = try files.write("token", "eyJhbGciOi.WEBIDENTITYTOKEN.c2ln")
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(
                status: 403,
                body: .fixed(Array("<ErrorResponse><Error><Code>AccessDenied</Code><Message>WEBIDENTITYTOKEN</Message></Error></ErrorResponse>".utf8)))
        }
        defer { server.stop() }
        for url in ["http://127.0.0.1:\(server.port)", "http://127.0.0.1:1"] {
            let resolver = S3WebIdentityCredentials(tokenFile: token, roleARN: "arn:aws:iam::1:role/r", sessionName: "s", stsURL: url)
            var endpoint = S3Endpoint(alias: "aws", url: "http://127.0.0.1:1")
            endpoint.credentialsSource = S3CredentialsSource(resolver: resolver)
            let client = S3Client(endpoint: endpoint, pool: Self.pool)
            let error = try #require(await failure { () async throws(S3Error) in try await client.headObject(bucket: "b", key: "k") })
            #expect(error.kind == .credentials && error.isTransient, "\(error)")
            #expect(error.message.contains("role arn:aws:iam::1:role/r") && !error.message.contains("WEBIDENTITYTOKEN"), "\(error.message)")
            if url.hasSuffix(":\(server.port)") { #expect(error.message.contains("answered 403 AccessDenied"), "\(error.message)") }
        }
    }
}
