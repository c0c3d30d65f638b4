import Foundation
import Testing

@testable import DarkroomClient

@Suite("Job lists: bare and JSON lines, line numbers, every mistake by its place")
struct SourceListTests {
    @Test("A job list skips blank lines and comments, and keeps each source's line number")
    func plainLines() throws {
        let text = "# photos\n\n  cat.jpg  \r\nhttps://x.example/dog.png\n   # indented comment\n/abs/b.jpg\n"
        let requests = try SourceList.parse(Data(text.utf8), name: "list.txt").get()
        #expect(
            requests == [
                JobRequest(line: 3, source: "cat.jpg"),
                JobRequest(line: 4, source: "https://x.example/dog.png"),
                JobRequest(line: 6, source: "/abs/b.jpg"),
            ])
    }

    @Test("A JSON line overrides the flags with its own chain, format, quality, priority, id, output and name")
    func jsonLines() throws {
        let text =
            #"{"source": "a.jpg", "chain": "blur(2)", "format": "webp", "quality": 70, "priority": "HIGH", "id": "k1", "output": "out", "name": "{stem}-{chain}.{ext}"}"#
            + "\n" + #"{"source": "b.jpg", "quality": null}"#
        let requests = try SourceList.parse(Data(text.utf8), name: "l").get()
        #expect(
            requests == [
                JobRequest(
                    line: 1, source: "a.jpg", chain: "blur(2)", format: "webp", quality: 70, priority: .high, id: "k1", output: "out",
                    name: "{stem}-{chain}.{ext}"),
                JobRequest(line: 2, source: "b.jpg"),
            ])
    }

    @Test("Every bad line is reported with its number and what is wrong with it")
    func badLines() throws {
        let text = [
            #"{"source": "a.jpg", "quality": true}"#,
            #"{"chain": "blur(1)"}"#,
            #"{"source": "a.jpg", "colour": "red"}"#,
            #"{"source": "a.jpg", "priority": "urgent"}"#,
            #"{"source": 12}"#,
            #"{"source": "a.jpg", "quality": 101}"#,
            "{not json",
            "fine.jpg",
            #"{"source": ""}"#,
        ].joined(separator: "\n")
        guard case .failure(let failure) = SourceList.parse(Data(text.utf8), name: "jobs.txt") else {
            Issue.record("bad lines were accepted")
            return
        }
        #expect(failure.errors.map(\.line) == [1, 2, 3, 4, 5, 6, 7, 9])
        let messages = failure.errors.map(\.description)
        #expect(messages[0] == "jobs.txt:1: 'quality' must be a whole number 1…100")
        #expect(messages[1] == "jobs.txt:2: missing \"source\"")
        #expect(
            messages[2].hasPrefix(
                "jobs.txt:3: unknown key 'colour'; the keys are chain, firstFrameOnly, format, id, keep, metadata, name, output, placeholders, priority, quality, renditions, source"
            ))
        #expect(messages[3] == "jobs.txt:4: 'priority' must be high, normal or low (got 'urgent')")
        #expect(messages[4] == "jobs.txt:5: 'source' must be a string")
        #expect(messages[5] == "jobs.txt:6: 'quality' must be 1…100 (got 101)")
        #expect(messages[6].hasPrefix("jobs.txt:7: not valid JSON"))
        #expect(messages[7] == "jobs.txt:9: 'source' is empty; leave it out to use the flag")
    }

    @Test("A line that is not UTF-8 is refused by number; parsing stops after the error limit")
    func invalidUTF8AndLimit() throws {
        var data = Data("ok.jpg\n".utf8)
        data.append(contentsOf: [0xFF, 0xFE, 0x0A])
        guard case .failure(let failure) = SourceList.parse(data, name: "l") else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(failure.errors == [SourceListError(file: "l", line: 2, message: "not valid UTF-8")])
        let many = Data(String(repeating: "{\n", count: 50).utf8)
        guard case .failure(let capped) = SourceList.parse(many, name: "l", maxErrors: 5) else {
            Issue.record("bad lines were accepted")
            return
        }
        #expect(capped.errors.count == 5)
        #expect(capped.truncated)
    }

    @Test("A job list starting with a UTF-8 byte-order mark reads its first line as written: a JSON object stays a JSON object")
    func byteOrderMarkIsSkipped() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array("{\"source\": \"a.jpg\", \"chain\": \"blur(2)\"}\nb.jpg\n".utf8))
        guard case .success(let requests) = SourceList.parse(data, name: "list") else {
            Issue.record("the list did not parse")
            return
        }
        #expect(requests.map(\.source) == ["a.jpg", "b.jpg"])
        #expect(requests.first?.chain == "blur(2)")
    }
}

@Suite("Job lists: metadata")
struct SourceListMetadataTests {
    @Test("A line's metadata object is kept in canonical text; one too deep, or not an object, is refused")
    func metadata() throws {
        let list = #"""
            {"source": "a.jpg", "metadata": {"z": 1, "a": {"b": [true, null]}}}
            {"source": "b.jpg", "metadata": {"a": {"b": {"c": {"d": {}}}}}}
            {"source": "c.jpg", "metadata": [1]}
            """#
        guard case .failure(let errors) = SourceList.parse(Data(list.utf8), name: "m.txt") else {
            Issue.record("the list was accepted")
            return
        }
        #expect(errors.errors.map(\.line) == [2, 3])
        #expect(errors.errors.first?.message.contains("at most 4") == true)
        let good = try #require(try? SourceList.parse(Data(list.split(separator: "\n")[0].utf8), name: "m.txt").get())
        #expect(good.first?.metadata == #"{"a":{"b":[true,null]},"z":1}"#)
    }
}
