import Testing

@testable import DarkroomHTTPAPI

@Suite("The route table behind 404 and 405")
struct APIRoutesTests {
    @Test("A known path gives the methods it serves; parameters match one whole segment; other paths give nil")
    func methodsAtPaths() {
        #expect(APIRoutes.methods(at: "/v1/jobs") == [.post])
        #expect(APIRoutes.methods(at: "/v1/jobs/abc") == [.get, .delete])
        #expect(APIRoutes.methods(at: "/v1/jobs/a%2Fb/output") == [.get])
        #expect(APIRoutes.methods(at: "/v1/batches/nightly") == [.get, .delete])
        #expect(APIRoutes.methods(at: "/v1/dead-letters/retry") == [.post])
        #expect(APIRoutes.methods(at: "/v1/jobs/") == nil)
        #expect(APIRoutes.methods(at: "/v1/jobs/a/b") == nil)
        #expect(APIRoutes.methods(at: "/v2/jobs") == nil)
        #expect(APIRoutes.methods(at: "/") == nil)
    }

    @Test("Where a literal segment and a parameter both match, the route with more literal segments answers, as the router does")
    func literalSegmentsWin() {
        #expect(APIRoutes.methods(at: "/v1/webhooks/deliveries") == [.get])
        #expect(APIRoutes.methods(at: "/v1/webhooks/app-hook") == [.delete])
        #expect(APIRoutes.methods(at: "/v1/webhooks") == [.get, .post])
    }
}
