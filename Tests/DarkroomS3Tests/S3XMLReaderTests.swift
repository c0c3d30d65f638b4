import Testing

@testable import DarkroomS3

@Suite("S3 XML: the reader and the responses")
struct S3XMLReaderTests {
    static func parse(_ text: String) throws -> S3XMLElement { try S3XMLElement.parse(Array(text.utf8)) }

    @Test("Elements, text, entities, CDATA, comments, attributes and namespace prefixes")
    func reader() throws {
        let root = try Self.parse(
            """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <s3:Root xmlns:s3="http://s3.amazonaws.com/doc/2006-03-01/" a='x>y'>
              <Key>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#233;&#x65E5;</Key>
              <Empty/><Data><![CDATA[<not a tag> & raw]]></Data>
            </s3:Root>
            """)
        #expect(root.name == "Root")
        #expect(root.value("Key") == "a & b <c> \"d\" 'e' é日")
        #expect(root.child("Empty") == S3XMLElement(name: "Empty"))
        #expect(root.value("Data") == "<not a tag> & raw")
    }

    @Test(
        "Malformed, hostile or unbalanced documents are refused",
        arguments: [
            "", "<a>", "<a></b>", "<a>&unknown;</a>", "<a>&#0;</a>", "<a>&#xD800;</a>", "<a>&amp</a>", "text<a/>", "<a/><b/>",
            "<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", "<a><!-- unterminated </a>", "<a b=\"unterminated></a>",
            String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40),
        ])
    func refused(text: String) {
        #expect(throws: S3XMLError.self) { try Self.parse(text) }
    }

    @Test("An element written back as XML reads back to itself")
    func roundTrip() throws {
        let element = S3XMLElement(
            name: "R", text: "x & <y> \"'", children: [S3XMLElement(name: "C", text: "é\u{1}"), S3XMLElement(name: "D")])
        #expect(try S3XMLElement.parse(Array(element.xml.utf8)) == element)
        // `<` followed by a combining mark is one Character; it is still escaped (a fuzz finding).
        let combining = S3XMLElement(name: "K", text: "a<\u{93C}b>\u{301}&\u{301}")
        #expect(!combining.xml.unicodeScalars.dropFirst(3).dropLast(4).contains("<"))
        #expect(try S3XMLElement.parse(Array(combining.xml.utf8)) == combining)
    }

    @Test("ListObjectsV2: keys decoded (encoding-type=url), sizes, unquoted ETags, the next token")
    func listing() throws {
        let root = try Self.parse(
            """
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>a%2F</Prefix>
            <EncodingType>url</EncodingType><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>
            <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
            <Contents><Key>a/b+c%2Bd%3De%25%C3%A9%01</Key><Size>12</Size><ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag></Contents>
            <Contents><Key>a/%E6%97%A5%E6%9C%AC</Key><Size>0</Size><ETag>"abc-2"</ETag></Contents>
            </ListBucketResult>
            """)
        let page = try S3XMLResponses.listPage(root)
        #expect(
            page.objects == [
                S3ListedObject(key: "a/b c+d=e%é\u{1}", size: 12, etag: "9b2cf535f27731c974343645a3985328"),
                S3ListedObject(key: "a/日本", size: 0, etag: "abc-2"),
            ])
        #expect(page.nextContinuationToken == "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=")
        let last = try Self.parse("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>")
        #expect(try S3XMLResponses.listPage(last).nextContinuationToken == nil)
        let broken = try Self.parse("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>")
        #expect(throws: S3XMLError.self) { try S3XMLResponses.listPage(broken) }
    }

    @Test("ListMultipartUploads: uploads, their start in seconds, the next markers")
    func uploads() throws {
        let root = try Self.parse(
            """
            <ListMultipartUploadsResult><Bucket>b</Bucket><IsTruncated>true</IsTruncated>
            <NextKeyMarker>k2</NextKeyMarker><NextUploadIdMarker>u2</NextUploadIdMarker>
            <Upload><Key>k1</Key><UploadId>u1</UploadId><Initiated>2026-11-27T21:00:00.000Z</Initiated></Upload>
            </ListMultipartUploadsResult>
            """)
        let page = try S3XMLResponses.uploadsPage(root)
        #expect(
            page.uploads == [
                S3MultipartUpload(key: "k1", uploadID: "u1", initiated: "2026-11-27T21:00:00.000Z", initiatedEpochSeconds: 1_795_813_200)
            ])
        #expect(page.next?.keyMarker == "k2" && page.next?.uploadIDMarker == "u2")
        #expect(S3XMLResponses.epochSeconds(iso8601: "1970-01-01T00:00:00Z") == 0)
        #expect(S3XMLResponses.epochSeconds(iso8601: "yesterday") == nil)
    }

    @Test("An error body yields its <Code> only, and only when it looks like a code")
    func errorCodes() {
        #expect(S3XMLResponses.errorCode(Array("<Error><Code>NoSuchKey</Code><Message>x</Message></Error>".utf8)) == "NoSuchKey")
        #expect(S3XMLResponses.errorCode(Array("<Error><Code>AKIA EXAMPLE\nStringToSign</Code></Error>".utf8)) == nil)
        #expect(S3XMLResponses.errorCode(Array("<html>Forbidden</html>".utf8)) == nil)
        #expect(S3XMLResponses.errorCode([]) == nil)
        #expect(S3XMLResponses.unquotedETag(" W/\"abc\" ") == "abc")
    }
}
