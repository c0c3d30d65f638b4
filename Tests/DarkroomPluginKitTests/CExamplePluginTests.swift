import DarkroomCore
import DarkroomPlugins
import DarkroomTestSupport
import Testing

@Suite("The C example plugin (example-c: invert), compiled with cc")
struct CExamplePluginTests {
    @Test("Given invert.c compiled as the example says, invert(1) turns each premultiplied channel c into alpha − c")
    func invert() throws {
        let directory = try TestImages.makeDirectory("c-plugin")
        let path = try PluginBuilds.compileC(["Plugins/Examples/C/invert.c"], name: "invert", into: directory)
        let catalog = try PluginTestSupport.catalog(loading: path)
        let chain = try catalog.processors.chain(from: "invert")
        #expect(chain.identifier == "invert.v1[example-c 1.0.0](amount: 1)")
        let input = try PluginTestSupport.noise(width: 3, height: 2, opaque: false)
        let expected = PluginTestSupport.bytes(of: input).enumerated().map { index, byte in
            index % 4 == 3 ? byte : PluginTestSupport.bytes(of: input)[index | 3] - byte
        }
        #expect(PluginTestSupport.bytes(of: try chain.process(input)) == expected)
    }
}
