import DarkroomTestSupport
import Glibc
import Testing

@testable import DarkroomRedis

@Suite("Redis URLs")
struct RedisURLTests {
    @Test("A bare host gets port 6379, database 0 and no credentials")
    func bareHost() throws {
        let url = try RedisURL("redis://cache.internal")
        #expect(url.endpoint == .tcp(host: "cache.internal", port: 6379))
        #expect(url.database == 0 && url.username == nil && url.password == nil)
    }

    @Test("User, password, port and database are all read from redis://user:password@host:port/db")
    func fullForm() throws {
        let url = try RedisURL("redis://worker:s3cret@10.0.0.5:6380/3")
        #expect(url.endpoint == .tcp(host: "10.0.0.5", port: 6380))
        #expect(url.username == "worker")
        #expect(url.password == "s3cret")
        #expect(url.database == 3)
    }

    @Test("redis://:password@host means the default user with a password")
    func passwordOnly() throws {
        let url = try RedisURL("redis://:pa55@localhost")
        #expect(url.username == nil)
        #expect(url.password == "pa55")
        #expect(url.endpoint == .tcp(host: "localhost", port: 6379))
    }

    @Test("Percent escapes in the user and password are decoded")
    func percentDecoding() throws {
        let url = try RedisURL("redis://ops%40team:p%3Ass%2Fw%40rd%25@h:1/0")
        #expect(url.username == "ops@team")
        #expect(url.password == "p:ss/w@rd%")
    }

    @Test("An IPv6 host is written in brackets")
    func ipv6() throws {
        let url = try RedisURL("redis://[::1]:7000/1")
        #expect(url.endpoint == .tcp(host: "::1", port: 7000))
        #expect(url.database == 1)
        #expect(url.description == "redis://[::1]:7000/1")
    }

    @Test("unix:///path with ?db=N selects a socket and a database")
    func unixSocket() throws {
        let url = try RedisURL("unix:///run/redis/redis.sock?db=4")
        #expect(url.endpoint == .unix(path: "/run/redis/redis.sock"))
        #expect(url.database == 4)
        let withCredentials = try RedisURL("unix://w:pw@/tmp/r.sock")
        #expect(withCredentials.endpoint == .unix(path: "/tmp/r.sock"))
        #expect(withCredentials.username == "w" && withCredentials.password == "pw")
    }

    @Test(
        "Malformed URLs are refused with a reason",
        arguments: [
            "cache:6379", "http://h", "redis://", "redis://h:0", "redis://h:70000", "redis://h:abc",
            "redis://h/x", "redis://h/-1", "unix://relative.sock", "redis://h?timeout=3", "redis://[::1",
            "redis://u:%zz@h", "rediss://h:6379",
        ])
    func malformed(text: String) {
        #expect(throws: RedisError.self) { try RedisURL(text) }
    }

    @Test("rediss:// is refused with a pointer to a TLS sidecar")
    func tlsRefused() {
        #expect {
            try RedisURL("rediss://h")
        } throws: { error in
            "\(error)".contains("stunnel")
        }
    }

    @Test(
        "The description never shows the password, in any form",
        arguments: [
            "redis://worker:TopSecret42@h:1/2", "redis://:TopSecret42@h", "unix://:TopSecret42@/tmp/s.sock",
            "redis://admin:TopSecret42@[::1]:6379/0",
        ])
    func passwordNeverPrinted(text: String) throws {
        let url = try RedisURL(text)
        #expect(url.password == "TopSecret42")
        #expect(!url.description.contains("TopSecret42"))
        #expect(!"\(url)".contains("TopSecret42"))
        #expect(!String(reflecting: url.description).contains("TopSecret42"))
        #expect(url.description.contains(":***@"))
    }

    @Test("An error for a URL that cannot be parsed does not echo its password")
    func errorDoesNotEchoPassword() {
        #expect {
            try RedisURL("cache:TopSecret42@h")
        } throws: { error in
            !"\(error)".contains("TopSecret42")
        }
    }

    @Test("--redis wins over DARKROOM_REDIS_URL, which wins over the default")
    func resolutionOrder() throws {
        let environment = ["DARKROOM_REDIS_URL": "redis://env-host:7001/5"]
        #expect(
            try RedisURL.resolve(argument: "redis://arg-host", environment: environment).endpoint
                == .tcp(host: "arg-host", port: 6379))
        #expect(try RedisURL.resolve(argument: nil, environment: environment).endpoint == .tcp(host: "env-host", port: 7001))
        #expect(try RedisURL.resolve(argument: nil, environment: [:]) == .default)
    }

    @Test("DARKROOM_REDIS_PASSWORD_FILE supplies the password from a file, trailing newline dropped")
    func passwordFile() throws {
        let server = try RedisTestServer()  // only for its private temporary directory
        defer { server.stop() }
        let path = server.directory + "/password"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        let bytes = Array("fr0m-file\n".utf8)
        #expect(write(fd, bytes, bytes.count) == bytes.count)
        close(fd)
        defer { unlink(path) }
        let url = try RedisURL.resolve(
            argument: nil,
            environment: [
                "DARKROOM_REDIS_URL": "redis://worker@h:6379", "DARKROOM_REDIS_PASSWORD_FILE": path,
            ])
        #expect(url.username == "worker")
        #expect(url.password == "fr0m-file")
        #expect(throws: RedisError.self) { try RedisURL.default.withPassword(fromFile: server.directory + "/missing") }
    }
}
