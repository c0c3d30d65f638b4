import DarkroomS3

/// What `MotoS3Server` sends moto to make signatures checked: an IAM user, its access key and an
/// inline policy allowing `s3:*`, through the IAM query API on the same server (moto routes a
/// request to IAM by its credential scope's service). These are the server's first three
/// actions, the ones `INITIAL_NO_AUTH_ACTION_COUNT` leaves unauthenticated.
enum MotoIAMSetup {
    static let unauthenticatedActions = 3
    static let userName = "darkroom-tests"

    /// Creates the user, its key and its policy; returns the key pair.
    static func createUser(port: Int) async throws -> S3Credentials {
        // Signed with any key: moto reads the scope, and checks nothing during the first actions.
        let setup = S3Credentials(accessKeyID: "AKIDSETUP", secretAccessKey: "setup")
        _ = try await action(port: port, setup, ["Action": "CreateUser", "UserName": userName])
        let created = try await action(port: port, setup, ["Action": "CreateAccessKey", "UserName": userName])
        // `iam:*` too, so a test can make users of narrower rights (`MotoS3Server.createUser`) and
        // roles for web identity (`createRole`).
        let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:*","iam:*"],"Resource":"*"}]}"#
        _ = try await action(
            port: port, setup, ["Action": "PutUserPolicy", "UserName": userName, "PolicyName": "s3-all", "PolicyDocument": policy])
        guard let key = created.child("CreateAccessKeyResult")?.child("AccessKey"), let id = key.value("AccessKeyId"),
            let secret = key.value("SecretAccessKey")
        else { throw MotoS3ServerError(description: "moto's CreateAccessKey answer has no key pair") }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret)
    }

    /// One IAM query action (`POST /`, form-encoded), its XML answer parsed.
    static func action(port: Int, _ credentials: S3Credentials, _ parameters: [String: String]) async throws -> S3XMLElement {
        let form = (parameters.merging(["Version": "2010-05-08"]) { first, _ in first })
            .sorted { $0.key < $1.key }
            .map { SigV4Encoding.encode($0.key) + "=" + SigV4Encoding.encode($0.value) }
            .joined(separator: "&")
        let reply = try await signedRequest(
            port: port, method: "POST", path: "/", credentials: credentials, service: "iam", body: Array(form.utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")])
        guard reply.status == 200 else {
            throw MotoS3ServerError(description: "IAM \(parameters["Action"] ?? ""): moto answered \(reply.status): \(reply.text.prefix(300))")
        }
        return try S3XMLElement.parse(reply.body)
    }

    /// A request signed with SigV4 for `service`, sent with `HTTPTestClient`.
    static func signedRequest(
        port: Int, method: String, path: String, credentials: S3Credentials, service: String, body: [UInt8],
        headers: [(name: String, value: String)] = []
    ) async throws -> HTTPTestClient.Reply {
        let payloadHash = SigV4Signer.hexSHA256(body)
        let signed = SigV4Signer(credentials: credentials, region: "us-east-1", service: service).sign(
            method: method, host: "127.0.0.1:\(port)", path: path,
            headers: headers + [("x-amz-content-sha256", payloadHash)], payloadHash: payloadHash, at: .now)
        // HTTPTestClient sends its own Host (the same text that was signed).
        let sent = headers + [("x-amz-content-sha256", payloadHash)] + signed.headers.filter { $0.name != "host" }
        return try await HTTPTestClient(port: port).perform(
            method, SigV4Encoding.canonicalPath(path, rule: .s3), headers: sent.map { ($0.name, $0.value) }, body: body,
            timeout: 60)
    }
}
