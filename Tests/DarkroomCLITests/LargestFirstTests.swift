import Foundation
import Testing

@testable import DarkroomCLI

@Suite("Largest first: the order process and run start their images in")
struct LargestFirstTests {
    /// Three PNGs of very different sizes (more pixels, more bytes), given in an order that is
    /// neither largest nor smallest first.
    static func inputs(in dir: String) throws -> [String] {
        let sizes = [(name: "1-small.png", side: 16), (name: "2-large.png", side: 160), (name: "3-medium.png", side: 64)]
        for (index, input) in sizes.enumerated() {
            try WorkerCLITestKit.write(
                try WorkerCLITestKit.image(.png, width: input.side, height: input.side, tint: UInt8(index * 40)), to: "\(dir)/\(input.name)")
        }
        return sizes.map(\.name)
    }

    static func sources(ofRecords output: String, key: String) throws -> [String] {
        try output.split(separator: "\n").map { line in
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return ((record[key] as? String) ?? "").split(separator: "/").last.map(String.init) ?? ""
        }
    }

    @Test("Network sources first in the order given, then files and data: URIs by size, largest first; ties and unreadable files keep their order at the end")
    func ordering() throws {
        let dir = try WorkerCLITestKit.makeDirectory("largest-first")
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write([UInt8](repeating: 1, count: 10), to: "\(dir)/ten")
        try WorkerCLITestKit.write([UInt8](repeating: 1, count: 300), to: "\(dir)/three hundred")
        try WorkerCLITestKit.write([UInt8](repeating: 1, count: 300), to: "\(dir)/also three hundred")
        let sources = [
            "ten", "https://example.com/a.jpg", "missing", "\(dir)/three hundred", "data:image/png;base64,AAAA",
            "file://\(dir)/also%20three%20hundred", "HTTP://example.com/b.jpg",
        ]
        let ordered = LargestFirst.ordered(sources, workingDirectory: dir) { $0 }
        #expect(
            ordered == [
                "https://example.com/a.jpg", "HTTP://example.com/b.jpg", "\(dir)/three hundred",
                "file://\(dir)/also%20three%20hundred", "data:image/png;base64,AAAA", "ten", "missing",
            ])
    }

    @Test("process -j 1 starts (and so finishes) the largest image first")
    func processStartsLargest() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("largest-first")
        defer { WorkerCLITestKit.remove(dir) }
        let names = try Self.inputs(in: dir)
        let run = try await WorkerCLITestKit.run(["process"] + names + ["-p", "downsample(8x8)", "--out", "out", "-j", "1", "--json"], in: dir)
        #expect(run.status == 0, "stderr: \(run.error)")
        #expect(try Self.sources(ofRecords: run.output, key: "source") == ["2-large.png", "3-medium.png", "1-small.png"])
    }

    @Test("run -j 1 hands the largest job out first")
    func runStartsLargest() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("largest-first")
        defer { WorkerCLITestKit.remove(dir) }
        let names = try Self.inputs(in: dir)
        let run = try await WorkerCLITestKit.run(["run"] + names + ["-p", "downsample(8x8)", "--out", "out", "-j", "1", "--json"], in: dir)
        #expect(run.status == 0, "stderr: \(run.error)")
        #expect(try Self.sources(ofRecords: run.output, key: "source") == ["2-large.png", "3-medium.png", "1-small.png"])
    }
}
