// swift-tools-version:6.1
import PackageDescription

/// Every target is built with the same strict settings: Swift 6 language mode (complete
/// concurrency checking) plus the upcoming features that make dependencies explicit.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Hearth",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "hearth", targets: ["hearth"]),
        .library(name: "HearthServer", targets: ["HearthServer"]),
        .library(name: "HearthWire", targets: ["HearthWire"]),
        // The client SDK: Foundation (FoundationNetworking on Linux) and HearthWire only.
        .library(name: "Hearth", targets: ["Hearth"]),
        // The admin SDK for servers: HearthWire, HearthTransport and HearthCrypto (signatures).
        .library(name: "HearthAdmin", targets: ["HearthAdmin"]),
        // Walks the development seed's scenarios with both SDKs against a running `scripts/serve`.
        .executable(name: "SeedWalkthrough", targets: ["SeedWalkthrough"]),
    ],
    targets: [
        // C libraries from Debian, bound through module maps.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // The layers, lowest first. A target only depends on targets above it in this list.
        .target(name: "HearthBase"),
        // The wire shapes shared by the server's routes and the Swift SDKs: Foundation only.
        .target(name: "HearthWire"),
        .target(name: "HearthCrypto", dependencies: ["HearthBase", "COpenSSL", "CArgon2"]),
        .target(name: "HearthHTTP", dependencies: ["HearthBase", "CMicroHTTPD", "CZlib"]),
        .target(name: "HearthStore", dependencies: ["HearthBase", "CSQLite", "CLibPQ"]),
        .target(name: "HearthNetwork", dependencies: ["HearthBase", "CCurl"]),
        .target(name: "HearthCore", dependencies: ["HearthBase", "HearthCrypto", "HearthStore", "HearthWire"]),
        .target(
            name: "HearthMail",
            dependencies: ["HearthBase", "HearthCore", "HearthCrypto", "HearthNetwork", "HearthStore"]
        ),
        .target(
            name: "HearthServer",
            dependencies: [
                "HearthBase", "HearthCore", "HearthCrypto", "HearthHTTP", "HearthMail", "HearthNetwork", "HearthStore",
                "HearthWire",
            ]
        ),
        .executableTarget(name: "hearth", dependencies: ["HearthServer"]),
        // HTTP for the two SDKs: URLSession (FoundationNetworking on Linux) behind a protocol.
        .target(name: "HearthTransport"),
        .target(name: "Hearth", dependencies: ["HearthWire", "HearthTransport"]),
        .target(name: "HearthAdmin", dependencies: ["HearthWire", "HearthTransport", "HearthCrypto"]),
        .executableTarget(
            name: "SeedWalkthrough",
            dependencies: ["Hearth", "HearthAdmin"],
            path: "Examples/SeedWalkthrough"
        ),

        // Test tooling shared by the test targets: a raw HTTP client and a launcher for the
        // real `hearth` binary.
        .target(name: "HearthTestSupport", dependencies: ["HearthBase"], path: "Tests/HearthTestSupport"),
        .testTarget(name: "HearthBaseTests", dependencies: ["HearthBase"]),
        .testTarget(name: "HearthWireTests", dependencies: ["HearthWire"]),
        .testTarget(name: "HearthCryptoTests", dependencies: ["HearthCrypto"]),
        .testTarget(name: "HearthHTTPTests", dependencies: ["HearthHTTP"]),
        .testTarget(name: "HearthStoreTests", dependencies: ["HearthStore", "HearthTestSupport"]),
        .testTarget(name: "HearthNetworkTests", dependencies: ["HearthNetwork", "HearthTestSupport"]),
        .testTarget(name: "HearthCoreTests", dependencies: ["HearthCore", "HearthStore", "HearthWire"]),
        .testTarget(
            name: "HearthMailTests",
            dependencies: [
                "HearthMail", "HearthCore", "HearthCrypto", "HearthStore", "HearthTestSupport", "HearthWire",
            ],
            exclude: ["Fixtures"]  // rendered templates, read by path (TemplateFixtureTests)
        ),
        .testTarget(
            name: "HearthServerTests",
            dependencies: [
                "HearthServer", "HearthHTTP", "HearthCore", "HearthStore", "HearthBase", "HearthCrypto", "HearthWire",
            ]
        ),
        .testTarget(name: "HearthEndToEndTests", dependencies: ["HearthCrypto", "HearthTestSupport"]),
        // One launch of an app on the client SDK; HearthTests runs it twice to restart a process.
        .executableTarget(name: "ClientLaunch", dependencies: ["Hearth"], path: "Tests/ClientLaunch"),
        // The client SDK against the real `hearth` binary (HearthTestSupport starts it), behind
        // a fault-injecting HTTP front (HearthHTTP) for back-off, and across two launches of
        // ClientLaunch.
        .testTarget(
            name: "HearthTests",
            dependencies: ["Hearth", "HearthTransport", "HearthTestSupport", "HearthHTTP", "HearthBase"]
        ),
        // The admin SDK (and the client SDK using the links it makes) against the real binary;
        // the walkthrough example and a package outside the repository built on both products.
        .testTarget(
            name: "HearthAdminTests",
            dependencies: ["HearthAdmin", "Hearth", "HearthTransport", "HearthTestSupport"]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
