/// The media type (`Content-Type`) of an output, from its format name or its file name's
/// extension: one table for the HTTP API's `GET /v1/jobs/{id}/output` and the object-storage
/// sink's uploads, so an output is labelled alike wherever it is read.
public enum OutputMediaType {
    /// The type of a format name (`jpeg`, `webp`, …) or file extension (`jpg`); unknown ones are
    /// `application/octet-stream`.
    public static func of(format: String) -> String {
        switch format.lowercased() {
        case "jpeg", "jpg": "image/jpeg"
        case "png": "image/png"
        case "webp": "image/webp"
        case "gif": "image/gif"
        case "avif": "image/avif"
        case "heic": "image/heic"
        default: "application/octet-stream"
        }
    }

    /// The type of an output named `name`, by the extension after its last `.` (none:
    /// `application/octet-stream`).
    public static func of(name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return of(format: "") }
        return of(format: String(name[name.index(after: dot)...]))
    }
}
