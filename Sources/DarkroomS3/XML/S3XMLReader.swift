/// A small, bounds-checked XML reader for S3 responses: elements, attributes (skipped), text with
/// the five named entities and numeric character references, CDATA, comments and processing
/// instructions (skipped). A DTD is refused (no entity expansion of any kind), as are unbalanced
/// tags, more than `maxDepth` levels or `maxElements` elements, and text outside the root.
struct S3XMLReader {
    private let bytes: [UInt8]
    private var index = 0
    private var elements = 0
    let maxDepth = 32
    let maxElements = 500_000

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(S3XMLError) -> S3XMLElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a UTF-8 byte-order mark
        var stack: [(name: String, text: [UInt8], children: [S3XMLElement])] = []
        var root: S3XMLElement?
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let start = index
                while index < bytes.count && bytes[index] != UInt8(ascii: "<") { index += 1 }
                let run = bytes[start..<index]
                if stack.isEmpty {
                    guard run.allSatisfy(Self.isSpace) else { throw S3XMLError("text outside the root element at byte \(start)") }
                } else {
                    stack[stack.count - 1].text += try Self.decodeEntities(run, at: start)
                }
                continue
            }
            if starts(with: "<?") {
                try skip(past: "?>")
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<![CDATA[") {
                let start = index + 9
                try skip(past: "]]>")
                guard !stack.isEmpty else { throw S3XMLError("CDATA outside the root element at byte \(start)") }
                stack[stack.count - 1].text += bytes[start..<(index - 3)]
            } else if starts(with: "<!") {
                throw S3XMLError("a DTD or declaration at byte \(index) (not accepted)")
            } else if starts(with: "</") {
                let at = index
                index += 2
                let name = readName()
                while index < bytes.count && Self.isSpace(bytes[index]) { index += 1 }
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw S3XMLError("unterminated end tag at byte \(at)") }
                index += 1
                guard let open = stack.popLast(), open.name == name else {
                    throw S3XMLError("end tag '\(name.prefix(40))' at byte \(at) does not close the open element")
                }
                let element = S3XMLElement(name: open.name, text: String(decoding: open.text, as: UTF8.self), children: open.children)
                if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
            } else {
                let at = index
                guard root == nil else { throw S3XMLError("a second root element at byte \(at)") }
                index += 1
                let name = readName()
                guard !name.isEmpty else { throw S3XMLError("a tag without a name at byte \(at)") }
                let selfClosing = try skipAttributes(from: at)
                elements += 1
                guard elements <= maxElements else { throw S3XMLError("more than \(maxElements) elements") }
                guard stack.count < maxDepth else { throw S3XMLError("elements nested deeper than \(maxDepth)") }
                if selfClosing {
                    let element = S3XMLElement(name: name)
                    if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
                } else {
                    stack.append((name, [], []))
                }
            }
        }
        guard stack.isEmpty, let root else { throw S3XMLError("the document ends before its root element is closed") }
        return root
    }

    private func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        return (0..<count).allSatisfy { bytes[index + $0] == prefix.utf8Start[$0] }
    }

    /// Moves past the next `terminator`, or throws when there is none.
    private mutating func skip(past terminator: StaticString) throws(S3XMLError) {
        let at = index
        let count = terminator.utf8CodeUnitCount
        while bytes.count - index >= count {
            if (0..<count).allSatisfy({ bytes[index + $0] == terminator.utf8Start[$0] }) {
                index += count
                return
            }
            index += 1
        }
        throw S3XMLError("unterminated markup at byte \(at)")
    }

    /// A tag name; a namespace prefix (`s3:Key`) is dropped.
    private mutating func readName() -> String {
        let start = index
        while index < bytes.count, !Self.isSpace(bytes[index]),
            bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/")
        {
            index += 1
        }
        let name = bytes[start..<index]
        let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
        return String(decoding: local, as: UTF8.self)
    }

    /// Skips a start tag's attributes (quoted values may hold `>`); true for `/>`.
    private mutating func skipAttributes(from at: Int) throws(S3XMLError) -> Bool {
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index >= 2 && bytes[index - 2] == UInt8(ascii: "/")
            } else if byte == UInt8(ascii: "<") {
                break
            }
        }
        throw S3XMLError("unterminated start tag at byte \(at)")
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
