import DarkroomS3

extension MotoS3Server {
    /// Creates another IAM user whose inline policy allows only `actions` on every resource
    /// (`["s3:GetObject", "s3:PutObject"]`: a worker that may not list its buckets), through IAM
    /// actions signed by the server's own user (its policy allows `iam:*`), and returns the new
    /// user's key pair. Needs `checkSignatures`.
    public func createUser(_ name: String, allowing actions: [String]) async throws -> S3Credentials {
        let quoted = actions.map { "\"\($0)\"" }.joined(separator: ",")
        let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["# + quoted + #"],"Resource":"*"}]}"#
        let steps: [[String: String]] = [
            ["Action": "CreateUser", "UserName": name],
            ["Action": "PutUserPolicy", "UserName": name, "PolicyName": "limited", "PolicyDocument": policy],
            ["Action": "CreateAccessKey", "UserName": name],
        ]
        var answer: S3XMLElement?
        for step in steps { answer = try await MotoIAMSetup.action(port: port, credentials, step) }
        guard let key = answer?.child("CreateAccessKeyResult")?.child("AccessKey"), let id = key.value("AccessKeyId"),
            let secret = key.value("SecretAccessKey")
        else { throw MotoS3ServerError(description: "moto's CreateAccessKey answer for \(name) has no key pair") }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret)
    }
}
