import Foundation
import Testing

@testable import DarkroomS3

@Suite("A credentials file read again when it changes")
struct S3CredentialsFileTests {
    @Test("A new file renamed over the old one is read at the next request")
    func atomicReplace() throws {
        let files = try CredentialsTestFiles("replace")
        defer { files.remove() }
        let path = try files.write("credentials", CredentialsTestFiles.profile(id: "OLDKEY", secret: "old"))
        let resolver = S3CredentialsFile(path: path, profile: "default")
        #expect(try resolver.credentials().accessKeyID == "OLDKEY")
        #expect(try resolver.credentials().accessKeyID == "OLDKEY")
        try files.write("credentials", CredentialsTestFiles.profile(id: "NEWKEY", secret: "new"))
        #expect(try resolver.credentials() == S3Credentials(accessKeyID: "NEWKEY", secretAccessKey: "new"))
    }

    @Test("A Kubernetes secret update (the ..data link swapped to a new directory) is read at the next request")
    func kubernetesSwap() throws {
        let files = try CredentialsTestFiles("kubernetes")
        defer { files.remove() }
        let root = files.directory
        // The kubelet's layout: credentials -> ..data/credentials, ..data -> ..2026_11_28_v1.
        try FileManager.default.createDirectory(atPath: root + "/..v1", withIntermediateDirectories: false)
        try files.write("..v1/credentials", CredentialsTestFiles.profile(id: "V1KEY", secret: "one"))
        try FileManager.default.createSymbolicLink(atPath: root + "/..data", withDestinationPath: "..v1")
        try FileManager.default.createSymbolicLink(atPath: root + "/credentials", withDestinationPath: "..data/credentials")
        let resolver = S3CredentialsFile(path: root + "/credentials", profile: "default")
        #expect(try resolver.credentials().accessKeyID == "V1KEY")

        try FileManager.default.createDirectory(atPath: root + "/..v2", withIntermediateDirectories: false)
        try files.write("..v2/credentials", CredentialsTestFiles.profile(id: "V2KEY", secret: "two"))
        try FileManager.default.createSymbolicLink(atPath: root + "/..data_tmp", withDestinationPath: "..v2")
        #expect(rename(root + "/..data_tmp", root + "/..data") == 0)
        try FileManager.default.removeItem(atPath: root + "/..v1")
        #expect(try resolver.credentials().accessKeyID == "V2KEY")
    }

    @Test("A file that disappears or breaks fails with .credentials naming it, and works again once fixed")
    func breaksAndRecovers() throws {
        let files = try CredentialsTestFiles("breaks")
        defer { files.remove() }
        let path = try files.write("credentials", CredentialsTestFiles.profile(id: "KEY", secret: "FIRSTSECRET"))
        let resolver = S3CredentialsFile(path: path, profile: "default")
        #expect(try resolver.credentials().accessKeyID == "KEY")
        try FileManager.default.removeItem(atPath: path)
        #expect {
            try resolver.credentials()
        } throws: { error in
            let error = error as? S3Error
            return error?.kind == .credentials && error?.isTransient == true && error?.message == "credentials file '\(path)' does not exist"
        }
        try files.write("credentials", "[default]\naws_access_key_id KEY SECONDSECRET\n")
        #expect {
            try resolver.credentials()
        } throws: { error in
            let message = (error as? S3Error)?.message ?? ""
            return message.contains("'\(path)': line 2") && !message.contains("SECONDSECRET")
        }
        try files.write("credentials", CredentialsTestFiles.profile(id: "KEY", secret: "THIRDSECRET"))
        #expect(try resolver.credentials().secretAccessKey == "THIRDSECRET")
    }
}
