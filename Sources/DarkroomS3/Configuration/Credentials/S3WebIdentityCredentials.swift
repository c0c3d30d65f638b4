import DarkroomSystem
import Glibc

/// Temporary credentials for a web identity (an EKS service account): the token file is read
/// again for every STS call (the kubelet rotates it), and the credentials are fetched again
/// `refreshMargin` before they expire, so no request is signed with credentials about to lapse.
///
/// When the service refuses the credentials (`refused()`), they are fetched again on the next
/// request, at most once per `refusalInterval`. When STS cannot be reached but the cached
/// credentials have not expired yet, those are used (and STS is asked again at most once per
/// `refusalInterval`); once they have expired, requests fail with `S3Error(.credentials)`.
public final class S3WebIdentityCredentials: S3CredentialsResolver {
    public let tokenFile: String
    let call: S3AssumeRoleWithWebIdentity
    let refreshMargin: Int
    let refusalInterval: Int
    let limits: S3TransferLimits
    let caFile: String?

    private struct State {
        var cached: S3AssumeRoleWithWebIdentity.Answer?
        /// Fetch on the next request even if the cached credentials are fresh.
        var stale = false
        /// When asking STS last failed (seconds since 1970).
        var lastFailure = 0
        /// When `refused()` last marked the credentials stale.
        var lastRefusal = 0
    }

    private let state = Locked(State())

    /// - Parameters:
    ///   - refreshMargin: seconds before `Expiration` the credentials are fetched again (300).
    ///   - refusalInterval: the least seconds between two fetches a refusal or an STS failure
    ///     causes (10).
    public init(
        tokenFile: String, roleARN: String, sessionName: String, stsURL: String, refreshMargin: Int = 300,
        refusalInterval: Int = 10, limits: S3TransferLimits = .init(), caFile: String? = nil
    ) {
        self.tokenFile = tokenFile
        call = S3AssumeRoleWithWebIdentity(stsURL: stsURL, roleARN: roleARN, sessionName: sessionName)
        self.refreshMargin = refreshMargin
        self.refusalInterval = refusalInterval
        self.limits = limits
        self.caFile = caFile
    }

    public var roleARN: String { call.roleARN }
    public var stsURL: String { call.stsURL }

    public func credentials() throws(S3Error) -> S3Credentials {
        let now = Int(time(nil))
        let snapshot = state.withLock { $0 }
        if let cached = snapshot.cached {
            let fresh = now < cached.expiration - refreshMargin && !snapshot.stale
            let usable = now < cached.expiration
            if fresh || (usable && !snapshot.stale && now - snapshot.lastFailure < refusalInterval) { return cached.credentials }
        }
        // STS is asked outside the lock; two requests that both found the credentials stale
        // both ask, and either answer is good.
        state.withLock { $0.stale = false }
        do throws(S3Error) {
            let token = try S3SecretFile.read(tokenFile, what: "web identity token file").text
            let trimmed = token.trimmingSuffix { $0 == "\n" || $0 == "\r" || $0 == " " }
            guard !trimmed.isEmpty else { throw S3Error(.credentials, "web identity token file '\(tokenFile)' is empty") }
            let answer = try call.perform(token: trimmed, limits: limits, caFile: caFile)
            state.withLock { $0.cached = answer }
            return answer.credentials
        } catch {
            state.withLock { $0.lastFailure = now }
            if let cached = snapshot.cached, now < cached.expiration { return cached.credentials }
            throw error
        }
    }

    public func refused() {
        let now = Int(time(nil))
        state.withLock { state in
            guard now - state.lastRefusal >= refusalInterval else { return }
            state.lastRefusal = now
            state.stale = true
        }
    }

    public var description: String { "web identity: role \(call.roleARN) through STS at \(call.stsURL), token file \(tokenFile)" }
}

extension String {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var text = Substring(self)
        while let last = text.last, predicate(last) { text = text.dropLast() }
        return String(text)
    }
}
