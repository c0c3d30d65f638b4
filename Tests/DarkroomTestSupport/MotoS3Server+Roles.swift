import DarkroomS3

extension MotoS3Server {
    /// Creates IAM role `name`, trusted for web identity and allowed `s3:*`; returns its ARN.
    /// moto's STS then answers `AssumeRoleWithWebIdentity` for it (unsigned, as AWS does:
    /// `scripts/moto-signed.py`), and its S3 checks the temporary credentials' signatures and
    /// the role's policy.
    public func createRole(_ name: String) async throws -> String {
        let trust =
            #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Federated":"oidc"},"Action":"sts:AssumeRoleWithWebIdentity"}]}"#
        let created = try await MotoIAMSetup.action(
            port: port, credentials, ["Action": "CreateRole", "RoleName": name, "AssumeRolePolicyDocument": trust])
        let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}"#
        _ = try await MotoIAMSetup.action(
            port: port, credentials, ["Action": "PutRolePolicy", "RoleName": name, "PolicyName": "s3-all", "PolicyDocument": policy])
        guard let arn = created.child("CreateRoleResult")?.child("Role")?.value("Arn") else {
            throw MotoS3ServerError(description: "moto's CreateRole answer has no role ARN")
        }
        return arn
    }
}
