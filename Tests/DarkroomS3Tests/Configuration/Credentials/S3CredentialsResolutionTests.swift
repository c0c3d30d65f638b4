import Testing

@testable import DarkroomS3

@Suite("Credentials resolution from the environment and files")
struct S3CredentialsResolutionTests {
    func source(_ environment: [String: String], alias: String = "default") throws(S3Error) -> S3CredentialsSource {
        try S3CredentialsResolution.source(alias: alias, region: "us-east-1", environment: environment)
    }

    /// The message of the error `body` throws (empty when it throws none or another kind).
    func refusal(_ body: () throws(S3Error) -> S3CredentialsSource) -> String {
        do {
            _ = try body()
            return ""
        } catch {
            return error.kind == .refused ? error.message : ""
        }
    }

    @Test("The alias's key pair, then its credentials file, then (default only) AWS's variables; else unsigned")
    func order() throws {
        let files = try CredentialsTestFiles("order")
        defer { files.remove() }
        let file = try files.write("credentials", CredentialsTestFiles.profile(id: "FILEKEY", secret: "filesecret"))
        let both = [
            "DARKROOM_S3_DEFAULT_ACCESS_KEY_ID": "ENVKEY", "DARKROOM_S3_DEFAULT_SECRET_ACCESS_KEY": "envsecret",
            "DARKROOM_S3_DEFAULT_CREDENTIALS_FILE": file, "AWS_ACCESS_KEY_ID": "AWSKEY", "AWS_SECRET_ACCESS_KEY": "awssecret",
            "HOME": files.directory,
        ]
        #expect(try source(both).current()?.accessKeyID == "ENVKEY")
        var withoutPair = both
        withoutPair["DARKROOM_S3_DEFAULT_ACCESS_KEY_ID"] = nil
        withoutPair["DARKROOM_S3_DEFAULT_SECRET_ACCESS_KEY"] = nil
        #expect(try source(withoutPair).current()?.accessKeyID == "FILEKEY")
        withoutPair["DARKROOM_S3_DEFAULT_CREDENTIALS_FILE"] = nil
        #expect(try source(withoutPair).current()?.accessKeyID == "AWSKEY")
        #expect(try source(withoutPair, alias: "minio") == .anonymous, "AWS's variables are for the default endpoint only")
        #expect(try source(["HOME": files.directory + "/none"]) == .anonymous)
        let minio = ["DARKROOM_S3_MY_MINIO_CREDENTIALS_FILE": file, "DARKROOM_S3_MY_MINIO_PROFILE": "default"]
        #expect(try source(minio, alias: "my-minio").current()?.accessKeyID == "FILEKEY")
    }

    @Test("Half a key pair, a missing or broken credentials file, half a web identity: usage errors naming them")
    func mistakes() throws {
        let files = try CredentialsTestFiles("mistakes")
        defer { files.remove() }
        let broken = try files.write("broken", "[default]\naws_secret_access_key TOPSECRET\n")
        #expect(refusal { () throws(S3Error) in try source(["AWS_ACCESS_KEY_ID": "A"]) }.contains("AWS_ACCESS_KEY_ID is set without AWS_SECRET_ACCESS_KEY"))
        let missing = refusal { () throws(S3Error) in try source(["DARKROOM_S3_DEFAULT_CREDENTIALS_FILE": "/etc/darkroom/s3/credentials"]) }
        #expect(missing.contains("DARKROOM_S3_DEFAULT_CREDENTIALS_FILE: credentials file '/etc/darkroom/s3/credentials' does not exist"), "\(missing)")
        let malformed = refusal { () throws(S3Error) in try source(["DARKROOM_S3_DEFAULT_CREDENTIALS_FILE": broken]) }
        #expect(malformed.contains("'\(broken)': line 2") && !malformed.contains("TOPSECRET"), "\(malformed)")
        let profile = refusal { () throws(S3Error) in
            try source(["DARKROOM_S3_DEFAULT_CREDENTIALS_FILE": broken.replacingOccurrences(of: "broken", with: "x"), "HOME": files.directory])
        }
        #expect(profile.contains("does not exist"))
        #expect(refusal { () throws(S3Error) in try source(["AWS_ROLE_ARN": "arn:aws:iam::1:role/r"]) }.contains("without AWS_WEB_IDENTITY_TOKEN_FILE"))
        let token = refusal { () throws(S3Error) in
            try source(["AWS_ROLE_ARN": "arn:aws:iam::1:role/r", "AWS_WEB_IDENTITY_TOKEN_FILE": files.directory + "/token"])
        }
        #expect(token.contains("web identity token file '\(files.directory)/token' does not exist"), "\(token)")
    }

    @Test("The shared credentials file with AWS_PROFILE, the config file's keys and region; unsupported profiles are refused")
    func sharedFiles() throws {
        let files = try CredentialsTestFiles("shared")
        defer { files.remove() }
        try files.write(
            "credentials", CredentialsTestFiles.profile(id: "DEFAULTKEY", secret: "s1") + CredentialsTestFiles.profile("ci", id: "CIKEY", secret: "s2"))
        try files.write(
            "config",
            "[default]\nregion = eu-west-3\n[profile cfg]\naws_access_key_id = CFGKEY\naws_secret_access_key = s3\n"
                + "[profile sso]\nsso_start_url = https://example.awsapps.com/start\nsso_region = eu-west-1\n"
                + "[profile proc]\ncredential_process = /usr/bin/get-secret\n[profile assume]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = ci\n")
        let base = [
            "AWS_SHARED_CREDENTIALS_FILE": files.directory + "/credentials", "AWS_CONFIG_FILE": files.directory + "/config",
            "HOME": files.directory,
        ]
        #expect(try source(base).current()?.accessKeyID == "DEFAULTKEY")
        #expect(try source(base.merging(["AWS_PROFILE": "ci"]) { $1 }).current()?.accessKeyID == "CIKEY")
        #expect(try source(base.merging(["AWS_PROFILE": "cfg"]) { $1 }).current()?.accessKeyID == "CFGKEY")
        #expect(try S3SharedConfig.region(environment: base) == "eu-west-3")
        #expect(try S3SharedConfig.region(environment: base.merging(["AWS_DEFAULT_REGION": "ap-south-1"]) { $1 }) == "ap-south-1")
        #expect(try S3SharedConfig.region(environment: base.merging(["AWS_PROFILE": "ci"]) { $1 }) == nil)
        for (profile, named) in [("sso", "sso_region, sso_start_url"), ("proc", "credential_process"), ("assume", "role_arn, source_profile")] {
            let message = refusal { () throws(S3Error) in try source(base.merging(["AWS_PROFILE": profile]) { $1 }) }
            #expect(message.contains("AWS profile '\(profile)' gets its credentials with \(named), which Darkroom does not support"), "\(message)")
        }
        #expect(refusal { () throws(S3Error) in try source(base.merging(["AWS_PROFILE": "nope"]) { $1 }) }.contains("AWS_PROFILE 'nope': no such profile"))
        let home = ["HOME": files.directory + "/none", "AWS_SHARED_CREDENTIALS_FILE": files.directory + "/absent"]
        #expect(refusal { () throws(S3Error) in try source(home) }.contains("shared credentials file '\(files.directory)/absent' does not exist"))
    }

    @Test("Web identity: STS in the configured region, or AWS_STS_ENDPOINT_URL; a session name by default")
    func webIdentity() throws {
        let files = try CredentialsTestFiles("web-identity")
        defer { files.remove() }
        let token = try files.write("token", "eyJ.TOKEN.sig\n")
        let environment = ["AWS_ROLE_ARN": "arn:aws:iam::1:role/r", "AWS_WEB_IDENTITY_TOKEN_FILE": token, "AWS_REGION": "eu-west-3"]
        let resolver = try #require(try source(environment).resolver as? S3WebIdentityCredentials)
        #expect(resolver.stsURL == "https://sts.eu-west-3.amazonaws.com" && resolver.roleARN == "arn:aws:iam::1:role/r")
        #expect(resolver.call.sessionName.hasPrefix("darkroom-") && resolver.call.sessionName.count <= 64)
        let custom = try #require(try source(environment.merging(["AWS_STS_ENDPOINT_URL": "http://127.0.0.1:9"]) { $1 }).resolver as? S3WebIdentityCredentials)
        #expect(custom.stsURL == "http://127.0.0.1:9")
        #expect(!String(describing: custom).contains("TOKEN"))
    }

    @Test("Neither a description nor an endpoint's printed form shows a secret or a session token")
    func noSecrets() throws {
        let files = try CredentialsTestFiles("no-secrets")
        defer { files.remove() }
        let file = try files.write("credentials", CredentialsTestFiles.profile(id: "AKIDFILE", secret: "FILESECRET", token: "FILETOKEN"))
        var endpoint = S3Endpoint(alias: "default", url: "http://127.0.0.1:9000")
        endpoint.credentialsSource = try source(["DARKROOM_S3_DEFAULT_CREDENTIALS_FILE": file])
        #expect(try endpoint.credentialsSource.current()?.secretAccessKey == "FILESECRET")
        let fixed = S3Endpoint(
            alias: "x", url: "http://h", credentials: S3Credentials(accessKeyID: "AKIDFIXED", secretAccessKey: "FIXEDSECRET", sessionToken: "FIXEDTOKEN"))
        for text in [String(describing: endpoint), "\(endpoint.credentialsSource)", String(describing: fixed), "\(fixed.credentialsSource)"] {
            for secret in ["FILESECRET", "FILETOKEN", "FIXEDSECRET", "FIXEDTOKEN"] { #expect(!text.contains(secret), "\(text)") }
        }
        #expect("\(endpoint.credentialsSource)" == "credentials file \(file), profile default")
    }
}
