// swift-tools-version:6.1
import PackageDescription

/// Swift 6 language mode everywhere, with `ExistentialAny` so every existential is spelled `any`.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// Benchmarks and the shipped binary are built with `swift build -c release`; SwiftPM has no
/// per-target optimisation level, so debug builds (tests) run the pixel kernels unoptimised.
///
/// Darkroom is a Linux server: no `platforms` entry, because Apple platforms are not built
/// (`DarkroomSystem/Platform/LinuxOnly.swift` stops a build elsewhere with a message).
let package = Package(
    name: "Darkroom",
    products: [
        .executable(name: "darkroom", targets: ["darkroom"]),
        // The client library's example: enqueue and wait, linking no image code (docs/client-library.md).
        .executable(name: "darkroom-example-client", targets: ["darkroom-example-client"]),
        .library(name: "DarkroomSchema", targets: ["DarkroomSchema"]),
        .library(name: "DarkroomChains", targets: ["DarkroomChains"]),
        .library(name: "DarkroomCore", targets: ["DarkroomCore"]),
        .library(name: "DarkroomCodecs", targets: ["DarkroomCodecs"]),
        .library(name: "DarkroomStandardProcessors", targets: ["DarkroomStandardProcessors"]),
        .library(name: "DarkroomPipeline", targets: ["DarkroomPipeline"]),
        .library(name: "DarkroomQueue", targets: ["DarkroomQueue"]),
        .library(name: "DarkroomEventStream", targets: ["DarkroomEventStream"]),
        .library(name: "DarkroomFleetStatus", targets: ["DarkroomFleetStatus"]),
        .library(name: "DarkroomRedis", targets: ["DarkroomRedis"]),
        .library(name: "DarkroomOutput", targets: ["DarkroomOutput"]),
        .library(name: "DarkroomS3", targets: ["DarkroomS3"]),
        .library(name: "DarkroomWorker", targets: ["DarkroomWorker"]),
        .library(name: "DarkroomClient", targets: ["DarkroomClient"]),
        .library(name: "DarkroomAPIKeys", targets: ["DarkroomAPIKeys"]),
        .library(name: "DarkroomWebhooks", targets: ["DarkroomWebhooks"]),
        .library(name: "DarkroomCoordinator", targets: ["DarkroomCoordinator"]),
        .library(name: "DarkroomCoordinatorHTTP", targets: ["DarkroomCoordinatorHTTP"]),
        .library(name: "DarkroomHTTPAPI", targets: ["DarkroomHTTPAPI"]),
        .library(name: "DarkroomPluginKit", targets: ["DarkroomPluginKit"]),
        // The example Swift plugin: `swift build` leaves libDarkroomExampleSwiftPlugin.so in the
        // build directory (.build/debug or .build/release).
        .library(name: "DarkroomExampleSwiftPlugin", type: .dynamic, targets: ["DarkroomExampleSwiftPlugin"]),
        // A test fixture, not shipped: a Swift plugin DarkroomPluginKitTests loads beside the example.
        .library(name: "DarkroomPluginKitFixture", type: .dynamic, targets: ["DarkroomPluginKitFixture"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Already Hummingbird's; named for HTTPField (custom header names such as Last-Event-ID).
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Already Hummingbird's; named for the job API's request deadlines (a channel handler).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
    ],
    targets: [
        // MARK: C libraries from Debian's -dev packages
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CSpng", pkgConfig: "spng",
            providers: [.apt(["libspng-dev"])]),
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGif", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]),
        // AVIF read and written: libavif 0.11 (dav1d decodes, aom encodes).
        .systemLibrary(
            name: "CAvif", pkgConfig: "libavif",
            providers: [.apt(["libavif-dev"])]),
        // Whole-buffer DEFLATE for PNG output: several times zlib's speed at the same size.
        .systemLibrary(
            name: "CDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(
            name: "CLcms2", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CHiredis", pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]),
        // The plugin ABI: one public header (Plugins/include/darkroom_plugin.h) that C, Rust and
        // Swift plugins compile against, and the loader imports.
        .systemLibrary(name: "CDarkroomPlugin", path: "Plugins/include"),
        // <sys/xattr.h>, which the Glibc module leaves out: the output volume records each output's
        // owner in extended attributes. The C library's own functions; nothing more is linked.
        .systemLibrary(name: "CXattr", path: "Sources/CXattr"),

        // MARK: Darkroom
        .target(name: "DarkroomSystem", swiftSettings: strictSettings),
        // Processor schemas as plain records: the queue carries them in heartbeats without linking the pixels.
        .target(name: "DarkroomSchema", swiftSettings: strictSettings),
        // The chain syntax without pixels: parser, binder, the argument values, the processors' specs
        // (the standard ones included) and the output format names. Links no C library.
        .target(name: "DarkroomChains", dependencies: ["DarkroomSchema", "DarkroomSystem"], swiftSettings: strictSettings),
        .target(name: "DarkroomCore", dependencies: ["DarkroomChains", "DarkroomSystem", "DarkroomSchema"], swiftSettings: strictSettings),
        .target(
            name: "DarkroomCodecs",
            dependencies: [
                "DarkroomChains", "DarkroomCore", "DarkroomSystem", "CTurboJPEG", "CSpng", "CWebP", "CGif", "CLcms2", "CDeflate",
                "CAvif",
            ],
            swiftSettings: strictSettings),
        // Plugin modules: the catalog, the loader of shared libraries, the C ABI adapters; and
        // the built-in modules, registered through the same API as external ones.
        .target(
            name: "DarkroomPlugins",
            dependencies: [
                "DarkroomChains", "DarkroomCore", "DarkroomSchema", "DarkroomCodecs", "DarkroomSources", "DarkroomSystem", "CDarkroomPlugin",
            ],
            swiftSettings: strictSettings),
        // Writing plugins in Swift: Swift types over the C ABI. It depends on the ABI header only,
        // never on a Darkroom module, so a Swift plugin and the host share no Swift type metadata.
        .target(name: "DarkroomPluginKit", dependencies: ["CDarkroomPlugin"], swiftSettings: strictSettings),
        .target(
            name: "DarkroomExampleSwiftPlugin", dependencies: ["DarkroomPluginKit"],
            path: "Plugins/Examples/Swift", swiftSettings: strictSettings),
        .target(
            name: "DarkroomStandardProcessors",
            dependencies: ["DarkroomChains", "DarkroomCore", "DarkroomPlugins"],
            path: "Plugins/StandardProcessors",
            swiftSettings: strictSettings),
        .target(
            name: "DarkroomStandardProviders",
            dependencies: ["DarkroomChains", "DarkroomCore", "DarkroomPlugins", "DarkroomSources"],
            path: "Plugins/StandardProviders",
            swiftSettings: strictSettings),
        .target(
            name: "DarkroomStandardCoders",
            dependencies: ["DarkroomChains", "DarkroomCore", "DarkroomPlugins", "DarkroomCodecs"],
            path: "Plugins/StandardCoders",
            swiftSettings: strictSettings),
        .target(
            name: "DarkroomSources",
            dependencies: [
                "DarkroomCore", "DarkroomSystem", "CCurl",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),
        .target(
            name: "DarkroomCache",
            dependencies: ["DarkroomSystem", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings),
        // Job and event records with their JSON fast paths, the driver contract, `MemoryQueue`.
        .target(name: "DarkroomQueue", dependencies: ["DarkroomSystem", "DarkroomSchema"], swiftSettings: strictSettings),
        // The event stream as a reactive source (`EventSource`) over any driver.
        .target(name: "DarkroomEventStream", dependencies: ["DarkroomQueue", "DarkroomSystem"], swiftSettings: strictSettings),
        // The fleet's read model (`FleetStatus`, its reader, the `CoordinatorStore` protocol): no
        // Prometheus, Hummingbird or hiredis, so the CLI and an HTTP API share it with the coordinator.
        .target(name: "DarkroomFleetStatus", dependencies: ["DarkroomQueue"], swiftSettings: strictSettings),
        .target(
            name: "DarkroomPipeline",
            dependencies: ["DarkroomChains", "DarkroomCore", "DarkroomCodecs", "DarkroomSources", "DarkroomCache", "DarkroomSystem"],
            swiftSettings: strictSettings),
        // No image stack: `WorkLeases` comes from DarkroomSystem, SHA-256 (long lease keys) from swift-crypto.
        .target(
            name: "DarkroomRedis",
            dependencies: [
                "DarkroomQueue", "DarkroomFleetStatus", "DarkroomSystem", "CHiredis",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),
        // Where job outputs go (`OutputSink`) and the volume as its first implementation: no image
        // stack, so an object-storage sink or an HTTP API can use it without linking a codec.
        .target(
            name: "DarkroomOutput",
            dependencies: ["DarkroomSystem", "CXattr", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings),
        // S3-compatible object storage (docs/object-storage.md): endpoints and allowed buckets,
        // AWS Signature Version 4, requests through libcurl, the output sink for buckets; no image stack.
        .target(
            name: "DarkroomS3",
            dependencies: ["DarkroomSystem", "DarkroomSources", "DarkroomOutput", "CCurl", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings),
        .target(
            name: "DarkroomWorker",
            dependencies: [
                "DarkroomChains", "DarkroomCore", "DarkroomCodecs", "DarkroomPipeline", "DarkroomSources", "DarkroomOutput",
                "DarkroomQueue", "DarkroomSchema", "DarkroomSystem",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // The coordinator: the event log on the volume and the metrics, fed from the event stream.
        // No image targets.
        .target(
            name: "DarkroomCoordinator",
            dependencies: [
                "DarkroomQueue", "DarkroomEventStream", "DarkroomFleetStatus", "DarkroomSystem",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strictSettings),
        // The coordinator's HTTP side (Hummingbird): /metrics, /healthz, /status, /events (SSE) and
        // the dashboard page. Kept apart so the coordinator itself does not link a web server.
        .target(
            name: "DarkroomCoordinatorHTTP",
            dependencies: [
                "DarkroomCoordinator", "DarkroomQueue", "DarkroomFleetStatus", "DarkroomSystem",
                // The dashboard's drill-down and actions: the job API's read and act routes, as
                // the dashboard session's key (`ReadAndActRoutes`, `APIKey.dashboardSession`).
                "DarkroomHTTPAPI", "DarkroomAPIKeys", "DarkroomClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),
        // What any program needs to use a fleet (enqueue, wait, look up, cancel); no printing, and
        // no image code: the chain syntax and the records only (ClientTargetClosureTests holds it so).
        .target(
            name: "DarkroomClient",
            dependencies: [
                "DarkroomChains", "DarkroomQueue", "DarkroomEventStream", "DarkroomFleetStatus", "DarkroomSchema", "DarkroomSystem",
            ],
            swiftSettings: strictSettings),
        // API keys, their scopes and grants, and per-key rate limits, in memory and in Redis: no
        // HTTP, so the job API server and `darkroom api-key` share it.
        .target(
            name: "DarkroomAPIKeys",
            dependencies: [
                "DarkroomQueue", "DarkroomRedis", "DarkroomSystem", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),
        // The HTTP job API (`darkroom api`): submit, read, cancel and fetch outputs over the client
        // library; stateless (everything in Redis), so any number run behind a load balancer.
        .target(
            name: "DarkroomHTTPAPI",
            dependencies: [
                "DarkroomAPIKeys", "DarkroomClient", "DarkroomQueue", "DarkroomFleetStatus", "DarkroomRedis", "DarkroomSystem",
                "DarkroomWebhooks",
                // Listing s3:// prefixes and globs of a batch (`S3Listing`, shared with `darkroom enqueue`).
                "DarkroomS3",
                // OutputMediaType: the one Content-Type table, shared with the object-storage sink.
                "DarkroomOutput",
                .product(name: "Hummingbird", package: "hummingbird"),
                // MaximumAvailableConnections: the cap on open connections.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // RequestDeadlineHandler: a channel handler over the decoded request parts.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),
        // Webhook endpoints, the outbox and the notifier that runs in the coordinator process: no
        // HTTP server, so the job API exposes it with thin handlers. POSTs through DarkroomSources'
        // libcurl transfer, under the same address guard as source fetches.
        .target(
            name: "DarkroomWebhooks",
            dependencies: [
                "DarkroomQueue", "DarkroomRedis", "DarkroomSources", "DarkroomSystem",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .target(
            name: "DarkroomCLI",
            dependencies: [
                "DarkroomChains", "DarkroomCore", "DarkroomCodecs", "DarkroomPipeline",
                "DarkroomSources", "DarkroomCache", "DarkroomQueue", "DarkroomEventStream", "DarkroomFleetStatus", "DarkroomRedis",
                "DarkroomWorker", "DarkroomOutput", "DarkroomS3", "DarkroomClient", "DarkroomAPIKeys", "DarkroomWebhooks",
                "DarkroomCoordinator", "DarkroomCoordinatorHTTP", "DarkroomHTTPAPI", "DarkroomSystem", "DarkroomPlugins", "DarkroomStandardProcessors",
                "DarkroomStandardProviders", "DarkroomStandardCoders",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "darkroom", dependencies: ["DarkroomCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")], swiftSettings: strictSettings),
        // A program that uses a fleet through the client library alone: no pixels, no codecs.
        .executableTarget(
            name: "darkroom-example-client", dependencies: ["DarkroomClient", "DarkroomRedis"],
            path: "Examples/EnqueueAndWait", swiftSettings: strictSettings),

        // MARK: Tests
        // A test tool, not shipped: concurrent stores and verified reads on one cache directory.
        .executableTarget(
            name: "darkroom-cache-stress",
            dependencies: [
                "DarkroomCache",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/Tools/CacheStress", swiftSettings: strictSettings),
        // A benchmark tool, not shipped: the cost of crossing the plugin ABI (scripts/bench-plugins.sh).
        .executableTarget(
            name: "darkroom-plugin-bench",
            dependencies: ["DarkroomPlugins", "DarkroomChains", "DarkroomCore", "CDarkroomPlugin"],
            path: "Tests/Tools/PluginBench", swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomSystemTests", dependencies: ["DarkroomSystem", "DarkroomTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomChainsTests", dependencies: ["DarkroomChains", "DarkroomSchema"], swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomCoreTests",
            dependencies: ["DarkroomChains", "DarkroomCore", "DarkroomSchema", "DarkroomSystem", "DarkroomTestSupport"],
            swiftSettings: strictSettings),
        // MARK: Fuzzing (docs/fuzzing.md): the targets, the libFuzzer runner, the corpus replay
        .target(
            name: "DarkroomFuzzTargets",
            dependencies: [
                "DarkroomChains", "DarkroomCore", "DarkroomCodecs", "DarkroomStandardProcessors", "DarkroomQueue", "DarkroomSources",
                "DarkroomCache", "DarkroomRedis", "DarkroomClient", "DarkroomPlugins", "DarkroomS3", "CHiredis", "CDarkroomPlugin",
            ],
            path: "Tests/Fuzz/Targets", swiftSettings: strictSettings),
        .executableTarget(
            name: "darkroom-fuzz", dependencies: ["DarkroomFuzzTargets"], path: "Tests/Fuzz/Runner",
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomFuzzTests", dependencies: ["DarkroomFuzzTargets"], path: "Tests/Fuzz/Replay",
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomCodecsTests",
            // CWebP: the compositing tests hold Darkroom's animated WebP decoding to libwebp's own.
            // CTurboJPEG: the 1/8-scale scan pruning is held to TurboJPEG decoding the untouched file.
            dependencies: ["DarkroomChains", "DarkroomCore", "DarkroomCodecs", "CWebP", "CTurboJPEG"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings),
        .testTarget(
            name: "StandardProcessorsTests",
            dependencies: ["DarkroomChains", "DarkroomCore", "DarkroomSchema", "DarkroomStandardProcessors", "DarkroomTestSupport"],
            swiftSettings: strictSettings),
        .target(
            name: "DarkroomTestSupport", dependencies: ["DarkroomChains", "DarkroomCore", "DarkroomCodecs", "DarkroomQueue", "DarkroomS3", "DarkroomSystem"],
            path: "Tests/DarkroomTestSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomSourcesTests",
            dependencies: ["DarkroomSources", "DarkroomCore", "DarkroomSystem", "DarkroomTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomCacheTests",
            dependencies: ["DarkroomCache", "DarkroomTestSupport", "darkroom", "darkroom-cache-stress"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomPipelineTests",
            dependencies: [
                "DarkroomPipeline", "DarkroomSources", "DarkroomCache", "DarkroomCodecs",
                "DarkroomChains", "DarkroomCore", "DarkroomStandardProcessors", "DarkroomTestSupport",
                // The leases the pipeline takes: in memory, and on a real Redis (LeasedWorkTests).
                "DarkroomSystem", "DarkroomRedis",
            ],
            swiftSettings: strictSettings),
        // The job queue contract, written once and run by both drivers' tests.
        .target(
            name: "DarkroomQueueContract", dependencies: ["DarkroomQueue", "DarkroomEventStream", "DarkroomSchema"],
            path: "Tests/DarkroomQueueContract", swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomQueueTests",
            dependencies: ["DarkroomQueue", "DarkroomQueueContract", "DarkroomSchema"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomEventStreamTests", dependencies: ["DarkroomEventStream", "DarkroomQueue"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomRedisTests",
            dependencies: [
                "DarkroomRedis", "DarkroomQueue", "DarkroomEventStream", "DarkroomFleetStatus", "DarkroomQueueContract", "DarkroomSchema",
                "DarkroomSystem", "DarkroomTestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomS3Tests",
            dependencies: [
                "DarkroomS3", "DarkroomSources", "DarkroomSystem", "DarkroomTestSupport", "DarkroomPipeline", "DarkroomCache", "DarkroomCodecs",
                "DarkroomChains", "DarkroomCore", "DarkroomOutput", "DarkroomOutputContract",
            ],
            swiftSettings: strictSettings),
        // The output sink contract, written once and run against every sink.
        .target(
            name: "DarkroomOutputContract", dependencies: ["DarkroomOutput"],
            path: "Tests/DarkroomOutputContract", swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomOutputTests",
            dependencies: ["DarkroomOutput", "DarkroomOutputContract", "DarkroomSystem", "DarkroomTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomWorkerTests",
            dependencies: [
                "DarkroomWorker", "DarkroomOutput", "DarkroomQueue", "DarkroomRedis", "DarkroomPipeline", "DarkroomCache", "DarkroomCodecs",
                "DarkroomChains", "DarkroomCore", "DarkroomSchema", "DarkroomStandardProcessors", "DarkroomSources", "DarkroomSystem",
                "DarkroomTestSupport", "DarkroomS3",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        // Every code any module can produce against the docs' one table (docs/limits-and-errors.md).
        .testTarget(
            name: "DarkroomErrorCodeTests",
            dependencies: [
                "DarkroomAPIKeys", "DarkroomCLI", "DarkroomCache", "DarkroomChains", "DarkroomClient", "DarkroomCodecs", "DarkroomCoordinator",
                "DarkroomCoordinatorHTTP", "DarkroomCore", "DarkroomHTTPAPI",
                "DarkroomOutput", "DarkroomPipeline", "DarkroomPlugins", "DarkroomQueue", "DarkroomRedis", "DarkroomSources",
                "DarkroomSystem", "DarkroomTestSupport", "DarkroomWebhooks", "DarkroomWorker",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomCLITests",
            dependencies: [
                "DarkroomCLI", "DarkroomPipeline", "DarkroomCodecs", "DarkroomChains", "DarkroomCore", "DarkroomSources",
                "DarkroomTestSupport", "DarkroomQueue", "DarkroomFleetStatus", "DarkroomRedis", "DarkroomClient", "DarkroomPlugins", "darkroom",
                "DarkroomAPIKeys", "DarkroomWebhooks", "DarkroomS3",
                // Run as a real process by ExampleClientRealTimeTests.
                "darkroom-example-client",
            ],
            swiftSettings: strictSettings),
        // A Swift plugin made with the kit for its tests (every argument kind, the failures).
        .target(
            name: "DarkroomPluginKitFixture", dependencies: ["DarkroomPluginKit"],
            path: "Tests/DarkroomPluginKitFixture", swiftSettings: strictSettings),
        // Loads the example plugins (Swift from the build directory, Rust built with cargo, C
        // compiled with cc) and the fixture as the host does. It must not depend on
        // DarkroomPluginKit or a plugin target: a plugin's Swift types stay in its own library.
        .testTarget(
            name: "DarkroomPluginKitTests",
            dependencies: ["DarkroomPlugins", "DarkroomChains", "DarkroomCore", "DarkroomTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomPluginsTests",
            dependencies: [
                "DarkroomPlugins", "DarkroomChains", "DarkroomCore", "DarkroomPipeline", "DarkroomCache", "DarkroomSources", "DarkroomSystem",
                "DarkroomStandardProcessors", "DarkroomTestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomAPIKeysTests",
            dependencies: [
                "DarkroomAPIKeys", "DarkroomQueue", "DarkroomRedis", "DarkroomSystem", "DarkroomTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomWebhooksTests",
            dependencies: [
                "DarkroomWebhooks", "DarkroomQueue", "DarkroomRedis", "DarkroomSystem", "DarkroomTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomClientTests",
            dependencies: ["DarkroomClient", "DarkroomChains", "DarkroomFleetStatus", "DarkroomQueue", "DarkroomSchema", "DarkroomTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomCoordinatorTests",
            dependencies: [
                "DarkroomCoordinator", "DarkroomQueue", "DarkroomFleetStatus", "DarkroomRedis", "DarkroomTestSupport", "DarkroomClient", "DarkroomHTTPAPI",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DarkroomCoordinatorHTTPTests",
            dependencies: [
                "DarkroomCoordinatorHTTP", "DarkroomCoordinator", "DarkroomQueue", "DarkroomRedis", "DarkroomTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings),
        // The job API end to end: a real redis-server, an in-process worker, HTTP over loopback.
        .testTarget(
            name: "DarkroomHTTPAPITests",
            dependencies: [
                "DarkroomHTTPAPI", "DarkroomAPIKeys", "DarkroomClient", "DarkroomQueue", "DarkroomRedis", "DarkroomWorker", "DarkroomPipeline",
                "DarkroomOutput", "DarkroomCodecs", "DarkroomStandardProcessors", "DarkroomSystem", "DarkroomTestSupport", "DarkroomS3",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
