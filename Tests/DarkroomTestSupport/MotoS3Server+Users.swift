import DarkroomS3

extension MotoS3Server {
    /// Creates another IAM user whose inline policy allows only `actions` on every resource
    /// (`["s3:GetObject", "s3:PutObject"]`: a worker that may not list its buckets), signed with
    /// the server's own user, and returns its key pair. Needs `checkSignatures`.
    public func createUser(_ name: String, allowing actions: [String]) async throws -> S3Credentials {
        try await MotoIAMSetup.createUser(port: port, name: name, allowing: actions, signedWith: credentials)
    }
}
