import Testing

@testable import DarkroomS3

@Suite("AWS shared credentials and config files")
struct S3ProfileFileTests {
    @Test("Comments, spaces around '=', profiles, CRLF, nested blocks, and a repeated section")
    func parsing() throws {
        let text = """
            # a comment
            ; another
            [default]
            aws_access_key_id=AKIDDEFAULT
              aws_secret_access_key   =   sec ret/+=  \r
            [ ci ]
            AWS_ACCESS_KEY_ID = AKIDCI
            [profile  eu]
            region = eu-west-3
            s3 =
              addressing_style = path
              max_concurrent_requests = 4
            endpoint_url = http://127.0.0.1:9000

            [default]
            aws_session_token = tok
            """
        let file = try S3ProfileFile.parse(text, path: "/x/credentials")
        #expect(
            file.profile("default", config: false) == ["aws_access_key_id": "AKIDDEFAULT", "aws_secret_access_key": "sec ret/+=", "aws_session_token": "tok"])
        #expect(file.profile("ci", config: false) == ["aws_access_key_id": "AKIDCI"])
        #expect(file.profile("eu", config: true) == ["region": "eu-west-3", "s3": "", "endpoint_url": "http://127.0.0.1:9000"])
        #expect(file.profile("default", config: true)?["aws_access_key_id"] == "AKIDDEFAULT", "[default] in a config file")
        #expect(file.profile("eu", config: false) == nil && file.profile("missing", config: false) == nil)
    }

    @Test(
        "A malformed line is named by the file and its number, never by its text",
        arguments: [
            ("[default]\naws_secret_access_key: TOPSECRET\n", "line 2 is not a [section]"),
            ("aws_secret_access_key = TOPSECRET\n", "line 1 is a setting before any [section]"),
            ("[default\naws_secret_access_key = TOPSECRET\n", "line 1 opens a section"),
            ("[default]\n = TOPSECRET\n", "line 2 is a setting without a name"),
        ])
    func malformed(text: String, expected: String) {
        #expect {
            try S3ProfileFile.parse(text, path: "/etc/darkroom/s3/credentials")
        } throws: { error in
            let message = (error as? S3Error)?.message ?? ""
            return message.contains("'/etc/darkroom/s3/credentials'") && message.contains(expected) && !message.contains("TOPSECRET")
        }
    }

    @Test("A profile's key pair; a missing profile, key or secret, or only unsupported settings, is named")
    func keyPairs() throws {
        let good = try S3CredentialsFile.credentials(
            in: "[p]\naws_access_key_id = A\naws_secret_access_key = S\naws_session_token = T\n", path: "/f", profile: "p", isConfig: false,
            what: "credentials file")
        #expect(good == S3Credentials(accessKeyID: "A", secretAccessKey: "S", sessionToken: "T"))
        let cases: [(String, String, String)] = [
            ("[other]\naws_access_key_id = A\n", "p", "has no profile 'p'"),
            ("[p]\naws_secret_access_key = SECRET\n", "p", "has no aws_access_key_id"),
            ("[p]\naws_access_key_id = A\n", "p", "has no aws_secret_access_key"),
            ("[p]\nsso_start_url = https://sso\nsso_role_name = r\n", "p", "sso_role_name, sso_start_url, which Darkroom does not support"),
            ("[p]\ncredential_process = /bin/secret SECRET\n", "p", "credential_process, which Darkroom does not support"),
            ("[p]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = q\n", "p", "role_arn, source_profile"),
        ]
        for (text, profile, expected) in cases {
            #expect {
                try S3CredentialsFile.credentials(in: text, path: "/f", profile: profile, isConfig: false, what: "credentials file")
            } throws: { error in
                let message = (error as? S3Error)?.message ?? ""
                return (error as? S3Error)?.kind == .credentials && message.contains(expected) && !message.contains("SECRET")
            }
        }
    }
}
