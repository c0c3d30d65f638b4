import DarkroomSources

extension S3Error {
    /// This failure as a source error for `source` (docs/object-storage.md#sources has the table).
    /// The message is the S3 error's own, which never holds a response body.
    public func sourceError(for source: String) -> SourceError {
        SourceError(sourceCode, source: source, message)
    }

    /// The `source.*` code of this kind of failure.
    var sourceCode: SourceError.Code {
        switch kind {
        case .notFound: return .notFound
        case .forbidden: return .forbidden
        case .credentials: return .credentials
        case .clockSkew: return .clockSkew
        case .throttled: return .rateLimited
        case .server, .badResponse: return .httpServerError
        case .client: return .httpClientError
        case .redirect: return .redirectRefused
        case .connection: return .connection
        case .timeout: return .timeout
        case .tooLarge: return .tooLarge
        case .refused: return .refused
        }
    }
}
