/// Where an endpoint's credentials come from when they can change while the process runs: a
/// credentials file a Kubernetes secret updates, or STS's temporary credentials for a web
/// identity. `S3Client` asks it before signing each request.
///
/// `credentials()` is called on a `BlockingWorkPool` thread, just before a request is signed: it
/// may `stat` or read a file or ask STS (within the transfer limits), but it should answer from
/// a cache when nothing changed. Its `description` names where the credentials come from, never
/// a secret, a session token or a web-identity token.
public protocol S3CredentialsResolver: AnyObject, Sendable, CustomStringConvertible {
    /// The credentials to sign with now, or `S3Error(.credentials)` naming what is wrong
    /// (transient: a job is retried after the operator fixes the file or the role).
    func credentials() throws(S3Error) -> S3Credentials
    /// The service refused the credentials it was given: fetch them again next time (a resolver
    /// may limit how often that happens).
    func refused()
}

/// An endpoint's credentials: none (unsigned requests), a fixed key pair, or a resolver asked
/// before each request (`S3CredentialsResolver`).
///
/// Equal when both are the same fixed pair, or both the same resolver object.
public struct S3CredentialsSource: Sendable, Hashable, CustomStringConvertible {
    private enum Storage: Sendable {
        case fixed(S3Credentials?)
        case resolver(any S3CredentialsResolver)
    }

    private let storage: Storage

    /// A key pair read once (`DARKROOM_S3_<ALIAS>_ACCESS_KEY_ID`, `AWS_ACCESS_KEY_ID`), or nil
    /// for unsigned requests.
    public static func fixed(_ credentials: S3Credentials?) -> S3CredentialsSource {
        S3CredentialsSource(storage: .fixed(credentials))
    }

    /// No credentials: requests go unsigned (a public bucket).
    public static let anonymous = S3CredentialsSource.fixed(nil)

    /// Credentials `resolver` answers before each request.
    public init(resolver: any S3CredentialsResolver) {
        storage = .resolver(resolver)
    }

    private init(storage: Storage) { self.storage = storage }

    /// The fixed key pair; nil when anonymous or resolved per request.
    public var fixedCredentials: S3Credentials? {
        if case .fixed(let credentials) = storage { return credentials }
        return nil
    }

    /// The resolver, when the credentials are resolved per request.
    public var resolver: (any S3CredentialsResolver)? {
        if case .resolver(let resolver) = storage { return resolver }
        return nil
    }

    /// The credentials to sign the next request with; nil for unsigned requests.
    public func current() throws(S3Error) -> S3Credentials? {
        switch storage {
        case .fixed(let credentials): return credentials
        case .resolver(let resolver): return try resolver.credentials()
        }
    }

    /// Tells the resolver (if any) that the service refused its credentials.
    public func refused() {
        if case .resolver(let resolver) = storage { resolver.refused() }
    }

    public var description: String {
        switch storage {
        case .fixed(nil): return "none (unsigned requests)"
        case .fixed(let credentials?): return "access key \(credentials.accessKeyID)"
        case .resolver(let resolver): return resolver.description
        }
    }

    public static func == (lhs: S3CredentialsSource, rhs: S3CredentialsSource) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.fixed(let left), .fixed(let right)): return left == right
        case (.resolver(let left), .resolver(let right)): return left === right
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .fixed(let credentials): hasher.combine(credentials)
        case .resolver(let resolver): hasher.combine(ObjectIdentifier(resolver))
        }
    }
}
