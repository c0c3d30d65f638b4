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
        let routes = APIRoutes.all.flatMap { route in route.methods.map { (route.template, $0.rawValue.lowercased()) } }
        for (path, method) in routes { #expect(paths[path]?[method] != nil, "\(method) \(path)") }
        #expect(paths.values.map(\.count).reduce(0, +) == routes.count)
    }
}
