/// Removes the GPS properties (`exif:GPS…`) from an XMP packet, by a bounded textual rewrite of
/// the RDF rather than an XML parser: the two forms XMP writers use are recognised,
/// - an attribute, `exif:GPSLatitude="…"` (or with `'`), removed with the space before it;
/// - an element, `<exif:GPSLatitude>…</exif:GPSLatitude>` (any content, rdf:Seq included) or
///   `<exif:GPSVersionID …/>`, removed whole.
///
/// Only the conventional `exif:` prefix of `http://ns.adobe.com/exif/1.0/` is recognised (every
/// common writer uses it). A packet that is not UTF-8, or where a GPS property does not end
/// (an unclosed quote or element), or where cutting one out leaves `exif:GPS` in the text, is
/// dropped whole — nil — rather than half kept. The work is
/// linear in the packet's size, which `ImageMetadata.maximumXMPBytes` caps.
enum XMPRewriter {
    private static let marker = Array("exif:GPS".utf8)

    /// The packet without GPS properties (unchanged when `keepGPS`), or nil when it is unusable.
    static func rewrite(_ packet: [UInt8], keepGPS: Bool) -> [UInt8]? {
        guard !packet.isEmpty, packet.count <= ImageMetadata.maximumXMPBytes,
            String(validating: packet, as: UTF8.self) != nil
        else { return nil }
        if keepGPS { return packet }
        var out: [UInt8] = []
        out.reserveCapacity(packet.count)
        var index = 0
        while index < packet.count {
            guard let found = find(marker, in: packet, from: index) else {
                out.append(contentsOf: packet[index...])
                break
            }
            if found > 0 && packet[found - 1] == UInt8(ascii: "<") {
                // An element: drop from `<` to the end of its closing tag (or of `/>`).
                out.append(contentsOf: packet[index..<(found - 1)])
                guard let end = elementEnd(packet, nameStart: found) else { return nil }
                index = end
            } else if found > 0 && packet[found - 1] == UInt8(ascii: "/") {
                return nil  // a closing tag with no opening one: not RDF this rewriter understands
            } else {
                // An attribute: drop the whitespace before it, the name, `=` and the quoted value.
                var start = found
                while start > index && isSpace(packet[start - 1]) { start -= 1 }
                out.append(contentsOf: packet[index..<start])
                guard let end = attributeEnd(packet, nameStart: found) else { return nil }
                index = end
            }
        }
        // Cutting a property out can join the text around it into a new `exif:GPS`: drop the
        // packet rather than loop.
        // Nothing left is nothing to keep.
        return !out.isEmpty && find(marker, in: out, from: 0) == nil ? out : nil
    }

    /// The index after `name="value"` starting at `nameStart`.
    private static func attributeEnd(_ p: [UInt8], nameStart: Int) -> Int? {
        var i = nameStart
        while i < p.count && isNameByte(p[i]) { i += 1 }
        while i < p.count && isSpace(p[i]) { i += 1 }
        guard i < p.count, p[i] == UInt8(ascii: "=") else { return nil }
        i += 1
        while i < p.count && isSpace(p[i]) { i += 1 }
        guard i < p.count, p[i] == UInt8(ascii: "\"") || p[i] == UInt8(ascii: "'") else { return nil }
        let quote = p[i]
        guard let close = p[(i + 1)...].firstIndex(of: quote) else { return nil }
        return close + 1
    }

    /// The index after the element whose name starts at `nameStart` (just after its `<`).
    private static func elementEnd(_ p: [UInt8], nameStart: Int) -> Int? {
        var i = nameStart
        while i < p.count && isNameByte(p[i]) { i += 1 }
        let name = Array(p[nameStart..<i])
        // The start tag's end; a `>` inside a quoted attribute value does not count.
        var quote: UInt8?
        while i < p.count {
            let byte = p[i]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                break
            }
            i += 1
        }
        guard i < p.count else { return nil }
        if p[i - 1] == UInt8(ascii: "/") { return i + 1 }  // <exif:GPSx … />
        let closing = Array("</".utf8) + name + [UInt8(ascii: ">")]
        guard let close = find(closing, in: p, from: i + 1) else { return nil }
        return close + closing.count
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var i = start
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}
