import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomHTTPAPI

@Suite("The OpenAPI document: the served copy is docs/openapi.json, and it names every route")
struct OpenAPIDocumentTests {
    @Test("The embedded document is docs/openapi.json byte for byte, a 3.1 document with every endpoint")
    func embeddedMatchesDocs() throws {
        let file = try String(contentsOfFile: PluginBuilds.repositoryRoot + "/docs/openapi.json", encoding: .utf8)
        #expect(OpenAPIDocument.json + "\n" == file)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let routes = [
            ("/v1/jobs", "post"), ("/v1/batches", "post"), ("/v1/jobs/{id}", "get"), ("/v1/jobs/{id}", "delete"),
            ("/v1/jobs/{id}/output", "get"), ("/v1/batches/{batch}", "get"), ("/v1/batches/{batch}", "delete"),
            ("/v1/dead-letters", "get"), ("/v1/dead-letters", "delete"), ("/v1/dead-letters/retry", "post"), ("/v1/openapi.json", "get"),
        ]
        for (path, method) in routes { #expect(paths[path]?[method] != nil, "\(method) \(path)") }
        #expect(paths.values.map(\.count).reduce(0, +) == routes.count)
    }
}
