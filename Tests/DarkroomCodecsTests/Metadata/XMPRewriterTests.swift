import Testing

@testable import DarkroomCodecs

@Suite("XMP rewriting for kept metadata")
struct XMPRewriterTests {
    static let packet = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
         exif:GPSLatitude="48,51.0N" exif:ExposureTime="1/250" exif:GPSLongitude = '2,21.0E'>
        <dc:creator><rdf:Seq><rdf:li>Ann Example</rdf:li></rdf:Seq></dc:creator>
        <exif:GPSAltitude>35/1</exif:GPSAltitude>
        <exif:GPSVersionID rdf:parseType="Resource" a=">"/>
        <exif:GPSTimeStamp><rdf:Seq><rdf:li>x</rdf:li></rdf:Seq></exif:GPSTimeStamp>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """

    @Test("Given XMP with GPS as attributes and elements, when rewritten, then no exif:GPS property is left and the rest is")
    func dropsGPS() throws {
        let out = String(decoding: try #require(XMPRewriter.rewrite(Array(Self.packet.utf8), keepGPS: false)), as: UTF8.self)
        #expect(!out.contains("GPS"))
        #expect(out.contains(#"exif:ExposureTime="1/250""#))
        #expect(out.contains("<rdf:li>Ann Example</rdf:li>"))
        #expect(out.contains("</rdf:Description>"))
    }

    @Test("With gps the packet is unchanged; a broken or non-UTF-8 packet is dropped")
    func keepsOrDrops() {
        let bytes = Array(Self.packet.utf8)
        #expect(XMPRewriter.rewrite(bytes, keepGPS: true) == bytes)
        #expect(XMPRewriter.rewrite(Array(#"<a exif:GPSLatitude="48"#.utf8), keepGPS: false) == nil)
        #expect(XMPRewriter.rewrite(Array("<exif:GPSAltitude>35".utf8), keepGPS: false) == nil)
        #expect(XMPRewriter.rewrite([0xFF, 0xFE, 0x00], keepGPS: false) == nil)
        #expect(XMPRewriter.rewrite([], keepGPS: false) == nil)
        for length in 0..<bytes.count { _ = XMPRewriter.rewrite(Array(bytes.prefix(length)), keepGPS: false) }
    }

    @Test("keep names parse, canonicalise, and refuse unknown items and gps alone")
    func keepNames() throws {
        #expect(try MetadataKeep.parse(commaSeparated: "xmp,icc,exif,icc").get().canonicalNames == ["exif", "icc", "xmp"])
        #expect(try MetadataKeep.parse(["gps", "exif"]).get() == [.gps, .exif])
        #expect(throws: KeepError.self) { try MetadataKeep.parse(["gps"]).get() }
        #expect(throws: KeepError.self) { try MetadataKeep.parse(commaSeparated: "icc,iptc").get() }
        #expect(MetadataKeep.names.map(\.name) == MetadataKeep.names.map(\.name).sorted())
    }
}
