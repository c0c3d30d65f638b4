import Testing

@testable import DarkroomClient

@Suite("Paths are made absolute for the workers; URLs stay as typed")
struct PathResolverTests {
    @Test("Relative paths become absolute and normalised; URLs and data: URIs stay as typed")
    func paths() {
        #expect(PathResolver.source("photos/./cat.jpg", from: "/home/ann") == "/home/ann/photos/cat.jpg")
        #expect(PathResolver.source("../x//y.jpg", from: "/home/ann") == "/home/x/y.jpg")
        #expect(PathResolver.source("/srv/a.jpg", from: "/home/ann") == "/srv/a.jpg")
        #expect(PathResolver.source("https://h/a.jpg?w=1", from: "/x") == "https://h/a.jpg?w=1")
        #expect(PathResolver.source("data:image/png;base64,AAAA", from: "/x") == "data:image/png;base64,AAAA")
        #expect(PathResolver.source("file:///srv/a.jpg", from: "/x") == "file:///srv/a.jpg")
        #expect(PathResolver.source("a:b.jpg", from: "/x") == "/x/a:b.jpg")
        #expect(PathResolver.absolute("../../..", from: "/a") == "/")
    }
}
