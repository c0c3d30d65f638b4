// swift-tools-version:6.1
import PackageDescription

/// Swift 6 language mode everywhere, with `ExistentialAny` so every existential is spelled `any`.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// Pixel kernels are the hot path; they are compiled with full optimisation even in debug builds
/// would be nice, but SwiftPM offers no per-target -O. Benchmarks always use `swift build -c release`.
let package = Package(
    name: "Darkroom",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "darkroom", targets: ["darkroom"]),
        .library(name: "DarkroomCore", targets: ["DarkroomCore"]),
        .library(name: "DarkroomCodecs", targets: ["DarkroomCodecs"]),
        .library(name: "DarkroomStandardProcessors", targets: ["DarkroomStandardProcessors"]),
        .library(name: "DarkroomPipeline", targets: ["DarkroomPipeline"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // MARK: C libraries from Debian's -dev packages
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CSpng", pkgConfig: "spng",
                       providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGif", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CLcms2", pkgConfig: "lcms2",
                       providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CHiredis", pkgConfig: "hiredis",
                       providers: [.apt(["libhiredis-dev"])]),

        // MARK: Darkroom
        .target(name: "DarkroomCore", swiftSettings: strictSettings),
        .target(name: "DarkroomCodecs",
                dependencies: ["DarkroomCore", "CTurboJPEG", "CSpng", "CWebP", "CGif", "CLcms2"],
                swiftSettings: strictSettings),
        .target(name: "DarkroomStandardProcessors",
                dependencies: ["DarkroomCore"],
                path: "Plugins/StandardProcessors",
                swiftSettings: strictSettings),
        .target(name: "DarkroomSources",
                dependencies: ["DarkroomCore", "CCurl"],
                swiftSettings: strictSettings),
        .target(name: "DarkroomCache",
                dependencies: ["DarkroomCore", .product(name: "Crypto", package: "swift-crypto")],
                swiftSettings: strictSettings),
        .target(name: "DarkroomQueue",
                dependencies: ["DarkroomCore", "CHiredis"],
                swiftSettings: strictSettings),
        .target(name: "DarkroomPipeline",
                dependencies: ["DarkroomCore", "DarkroomCodecs", "DarkroomStandardProcessors",
                               "DarkroomSources", "DarkroomCache"],
                swiftSettings: strictSettings),
        .target(name: "DarkroomCLI",
                dependencies: [
                    "DarkroomCore", "DarkroomCodecs", "DarkroomStandardProcessors", "DarkroomPipeline",
                    "DarkroomSources", "DarkroomCache",
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                ],
                swiftSettings: strictSettings),
        .executableTarget(name: "darkroom", dependencies: ["DarkroomCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")], swiftSettings: strictSettings),

        // MARK: Tests
        .testTarget(name: "DarkroomCoreTests",
                    dependencies: ["DarkroomCore", "DarkroomStandardProcessors"],
                    swiftSettings: strictSettings),
        .testTarget(name: "DarkroomCodecsTests",
                    dependencies: ["DarkroomCore", "DarkroomCodecs"],
                    resources: [.copy("Fixtures")],
                    swiftSettings: strictSettings),
        .testTarget(name: "StandardProcessorsTests",
                    dependencies: ["DarkroomCore", "DarkroomStandardProcessors"],
                    swiftSettings: strictSettings),
        .target(name: "DarkroomTestSupport", path: "Tests/DarkroomTestSupport", swiftSettings: strictSettings),
        .testTarget(name: "DarkroomSourcesTests",
                    dependencies: ["DarkroomSources", "DarkroomCore", "DarkroomTestSupport"],
                    swiftSettings: strictSettings),
        .testTarget(name: "DarkroomCacheTests",
                    dependencies: ["DarkroomCache", "DarkroomCore", "darkroom"],
                    swiftSettings: strictSettings),
        .testTarget(name: "DarkroomPipelineTests",
                    dependencies: ["DarkroomPipeline", "DarkroomSources", "DarkroomCache", "DarkroomCodecs",
                                   "DarkroomCore", "DarkroomStandardProcessors", "DarkroomTestSupport"],
                    swiftSettings: strictSettings),
        .testTarget(name: "DarkroomQueueTests",
                    dependencies: ["DarkroomQueue", "DarkroomCore", "DarkroomTestSupport"],
                    swiftSettings: strictSettings),
        .testTarget(name: "DarkroomCLITests",
                    dependencies: ["DarkroomCLI", "DarkroomPipeline", "DarkroomCodecs", "DarkroomCore", "DarkroomTestSupport"],
                    swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
