// swift-tools-version:6.0
// Tools version 6.0 compiles every Swift target in the Swift 6 language mode (strict concurrency).
import PackageDescription

let package = Package(
    name: "Herald",
    products: [
        .executable(name: "herald", targets: ["herald"])
    ],
    targets: [
        // C libraries from Debian's -dev packages.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CNATS", pkgConfig: "libnats", providers: [.apt(["libnats-dev"])]),
        // glibc's allocator controls; nothing to link beyond the C library.
        .systemLibrary(name: "CMalloc"),
        // Opaque C facade over ICU: its public header includes no ICU header, so Foundation's ICU never clashes.
        .target(
            name: "CICUShim",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),

        // SHA-256 rounds on the processor's SHA instructions, where it has them: pure computation, no library.
        .target(name: "CSHA256"),
        // The domain and policy: Swift, no I/O.
        .target(name: "HeraldCore", dependencies: ["CSHA256"]),
        // Small operating-system helpers every part may use: child processes.
        .target(name: "HeraldSupport"),
        // Structured JSON log lines and the Prometheus metrics registry, for every part that logs or counts.
        .target(name: "HeraldObservability"),
        // ICU in Swift: zones, wall time, MessageFormat, plural rules, tz data build.
        .target(name: "HeraldText", dependencies: ["CICUShim", "HeraldCore", "HeraldSupport"]),
        // libpq: connection pool on dedicated threads, pipeline, COPY, LISTEN, migrations, repositories.
        .target(name: "HeraldPostgres", dependencies: ["CLibPQ", "HeraldCore", "HeraldSupport"]),
        // libmicrohttpd server, router, JSON, problem+json, API keys and client tokens, request metrics.
        .target(name: "HeraldHTTP", dependencies: ["CMicroHTTPD", "CCrypto", "HeraldCore", "HeraldObservability"]),
        // Wiring: config, handlers, workers, embedded database, scheduler.
        .target(
            name: "HeraldService",
            dependencies: [
                "HeraldCore", "HeraldSupport", "HeraldObservability", "HeraldText", "HeraldPostgres", "HeraldHTTP",
                "CNATS", "CMalloc",
            ]
        ),
        .executableTarget(name: "herald", dependencies: ["HeraldService"]),

        // The plain socket HTTP client every test that talks to a real server uses.
        .target(name: "HeraldTestSupport", dependencies: ["HeraldObservability"], path: "Tests/HeraldTestSupport"),
        .testTarget(name: "HeraldCoreTests", dependencies: ["HeraldCore"]),
        .testTarget(name: "HeraldTextTests", dependencies: ["HeraldText", "HeraldCore", "HeraldSupport"]),
        .testTarget(name: "HeraldPostgresTests", dependencies: ["HeraldPostgres"]),
        .testTarget(name: "HeraldObservabilityTests", dependencies: ["HeraldObservability", "HeraldTestSupport"]),
        .testTarget(
            name: "HeraldHTTPTests",
            dependencies: ["HeraldHTTP", "HeraldObservability", "HeraldCore", "HeraldTestSupport"]
        ),
        .testTarget(
            name: "HeraldServiceTests",
            dependencies: [
                "HeraldService", "HeraldPostgres", "HeraldHTTP", "HeraldObservability", "HeraldText", "HeraldCore",
                "HeraldSupport", "HeraldTestSupport",
            ]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
