import DarkroomS3
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCLI

/// The credentials a command finds (docs/object-storage.md#credentials), through its flags and
/// environment, against moto.
@Suite("darkroom with credentials files, against moto", .realTime, .serialized)
struct S3CredentialsCommandRealTimeTests {
    @Test("The deployment's names: AWS_ENDPOINT_URL and DARKROOM_S3_DEFAULT_CREDENTIALS_FILE; a missing file exits 2")
    func credentialsFile() async throws {
        let moto = try await MotoS3Server()
        defer { moto.stop() }
        try await moto.createBucket("photos")
        let client = S3Client(endpoint: moto.endpoint(), pool: BlockingWorkPool(threadCount: 1))
        _ = try await client.putObject(
            bucket: "photos", key: "in/a.jpg", bytes: try WorkerCLITestKit.image(.jpeg, width: 200, height: 100), contentType: nil,
            cacheControl: nil)
        let directory = try WorkerCLITestKit.makeDirectory("s3-credentials-cli")
        defer { WorkerCLITestKit.remove(directory) }
        let file = directory + "/credentials"
        try "[default]\naws_access_key_id = \(moto.credentials.accessKeyID)\naws_secret_access_key = \(moto.credentials.secretAccessKey)\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        var environment = [
            "AWS_ENDPOINT_URL": moto.origin, "AWS_REGION": "us-east-1", "DARKROOM_S3_DEFAULT_CREDENTIALS_FILE": file, "HOME": directory,
        ]
        let arguments = ["process", "s3://photos/in/a.jpg", "-p", "resize(100x100)", "-o", "out.jpg", "--allow-bucket", "photos"]
        let run = try await WorkerCLITestKit.run(arguments, in: directory, environment: environment)
        #expect(run.status == 0, "\(run.error)")
        #expect(try WorkerCLITestKit.decode(directory + "/out.jpg").bitmap.size.width == 100)

        environment["DARKROOM_S3_DEFAULT_CREDENTIALS_FILE"] = directory + "/absent"
        let missing = try await WorkerCLITestKit.run(arguments, in: directory, environment: environment)
        #expect(missing.status == 2, "\(missing.error)")
        #expect(missing.error.contains("DARKROOM_S3_DEFAULT_CREDENTIALS_FILE: credentials file '\(directory)/absent' does not exist"))
        #expect(!missing.error.contains(moto.credentials.secretAccessKey))
    }

    @Test("A profile that only has sso_* settings exits 2 naming them; the config file gives the default endpoint and its region")
    func sharedFiles() throws {
        let directory = try WorkerCLITestKit.makeDirectory("s3-credentials-options")
        defer { WorkerCLITestKit.remove(directory) }
        try "[profile work]\nregion = eu-west-3\nendpoint_url = http://127.0.0.1:9000\nsso_start_url = https://example.awsapps.com/start\n"
            .write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        let options = try S3Options.parse(["--allow-bucket", "photos"])
        let base = ["HOME": directory, "AWS_CONFIG_FILE": directory + "/config"]
        #expect {
            try options.configuration(environment: base.merging(["AWS_PROFILE": "work"]) { $1 })
        } throws: { error in
            "\(error)".contains("AWS profile 'work' gets its credentials with sso_start_url, which Darkroom does not support")
        }
        try "[profile work]\nregion = eu-west-3\nendpoint_url = http://127.0.0.1:9000\naws_access_key_id = AKIDWORK\naws_secret_access_key = s\n"
            .write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        let configuration = try options.configuration(environment: base.merging(["AWS_PROFILE": "work"]) { $1 })
        let endpoint = try #require(configuration.endpoints["default"])
        #expect(endpoint.url == "http://127.0.0.1:9000" && endpoint.region == "eu-west-3")
        #expect(try endpoint.credentialsSource.current()?.accessKeyID == "AKIDWORK")
    }
}
