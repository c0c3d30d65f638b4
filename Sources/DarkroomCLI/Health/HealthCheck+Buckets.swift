import DarkroomS3
import DarkroomSystem
import Foundation

extension HealthCheck {
    /// Each allowed bucket of `configuration` is reachable and takes its endpoint's credentials,
    /// checked at the same time, each within `timeout`; the results in the buckets' order.
    static func buckets(_ configuration: S3Configuration, timeout: Duration) async -> [Result] {
        let buckets = configuration.allowedBuckets.sorted()
        // The requests block on libcurl: a small pool of their own, gone with the process.
        let pool = BlockingWorkPool(threadCount: min(max(buckets.count, 1), 4))
        defer { pool.shutdown() }
        return await withTaskGroup(of: (Int, Result).self) { group in
            for (index, bucket) in buckets.enumerated() {
                let endpoint = configuration.endpoints[bucket.endpoint]
                group.addTask { (index, await Self.bucket(bucket, endpoint: endpoint, pool: pool, timeout: timeout)) }
            }
            var results = [Result?](repeating: nil, count: buckets.count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    }

    /// One bucket: `HeadBucket`, and when that is refused with 403 (no `s3:ListBucket`, or wrong
    /// credentials: a `HEAD` answer has no body to say which), a `GetObject` of a key that cannot
    /// exist, whose error code tells the two apart. Passes when the bucket answers and the
    /// credentials are accepted; fails on a missing bucket, refused credentials, a clock too far
    /// off, an unreachable endpoint or `timeout`.
    static func bucket(_ bucket: S3Bucket, endpoint: S3Endpoint?, pool: BlockingWorkPool, timeout: Duration) async -> Result {
        let name = "bucket s3://\(bucket)"
        guard let endpoint else { return Result(name: name, passed: false, detail: "no endpoint '\(bucket.endpoint)' is configured") }
        let start = ContinuousClock.now
        let deadline = start + timeout
        func client() -> S3Client {
            // Each request gets what is left of `timeout`, so the fallback cannot double it.
            let left = max(0.05, seconds(deadline - ContinuousClock.now))
            var limits = S3TransferLimits()
            limits.connectTimeout = min(limits.connectTimeout, left)
            limits.totalTimeout = left
            limits.lowSpeedSeconds = min(limits.lowSpeedSeconds, left)
            return S3Client(endpoint: endpoint, pool: pool, limits: limits)
        }
        let signsRequests = client().signsRequests
        let signed = signsRequests ? "credentials accepted" : "unsigned requests (no credentials) accepted"
        do {
            try await client().headBucket(bucket.name)
            return Result(name: name, passed: true, detail: "HeadBucket answered 200 in \(milliseconds(ContinuousClock.now - start)) ms: exists, \(signed)")
        } catch let error where error.kind == .notFound {
            return Result(name: name, passed: false, detail: "no such bucket (HeadBucket answered 404 NoSuchBucket)")
        } catch let error where error.kind == .forbidden {
            // Checked below.
        } catch {
            return Result(name: name, passed: false, detail: failure(error))
        }
        do {
            let probe = try await client().probeMissingObject(bucket: bucket.name)
            let took = "\(milliseconds(ContinuousClock.now - start)) ms"
            switch probe {
            case .noSuchKey:
                return Result(
                    name: name, passed: true,
                    detail: "exists, \(signed): HeadBucket was refused (403: no s3:ListBucket?), "
                        + "a GetObject of a missing key answered 404 NoSuchKey (\(took))")
            case .accessDenied where !signsRequests:
                return Result(
                    name: name, passed: false,
                    detail: "unsigned requests are refused (403 AccessDenied): give endpoint '\(endpoint.alias)' credentials")
            case .accessDenied:
                return Result(
                    name: name, passed: true,
                    detail: "\(signed) (the signature was checked): HeadBucket and a GetObject of a missing key answered "
                        + "403 AccessDenied, so the bucket's existence is not proven; allow s3:ListBucket to prove it (\(took))")
            }
        } catch let error where error.kind == .notFound {
            return Result(name: name, passed: false, detail: "no such bucket (GetObject answered 404 NoSuchBucket)")
        } catch {
            return Result(name: name, passed: false, detail: failure(error))
        }
    }

    /// The line for a failed request: what kind, then Darkroom's own message (never the body).
    private static func failure(_ error: S3Error) -> String {
        switch error.kind {
        case .credentials: "credentials refused (\(error.serviceCode ?? "403")): \(error.message)"
        case .clockSkew: "this host's clock is too far off (RequestTimeTooSkewed): \(error.message)"
        case .timeout, .connection: "unreachable: \(error.message)"
        default: error.message
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
