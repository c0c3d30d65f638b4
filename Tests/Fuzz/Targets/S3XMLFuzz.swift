import DarkroomS3

/// S3's XML answers (listings, errors, multipart results) through the client's own reader: any
/// bytes end in a document or an `S3XMLError`, and a document, written back as XML, reads back to
/// an equal one (entities, CDATA and namespaces normalised on the first read).
enum S3XMLFuzz {
    static let target = FuzzTarget(
        name: "s3xml",
        summary: "S3 XML answers: elements, entities, CDATA, comments, DTDs refused; a parsed document round-trips"
    ) { bytes in
        let document: S3XMLElement
        do throws(S3XMLError) {
            document = try S3XMLElement.parse(Array(bytes))
        } catch {
            return  // a typed S3XMLError is the expected end for bad XML
        }
        let again: S3XMLElement
        do throws(S3XMLError) {
            again = try S3XMLElement.parse(Array(document.xml.utf8))
        } catch {
            FuzzFailure.stop("s3xml", "a parsed document written back does not parse: \(error)")
        }
        if again != document {
            FuzzFailure.stop("s3xml", "a parsed document written back reads as another document")
        }
    }
}
