// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ItemAudit",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "itemaudit", targets: ["itemaudit"]),
        .library(name: "Chronology", targets: ["Chronology"]),
        .library(name: "AuditLog", targets: ["AuditLog"]),
        .library(name: "GS1", targets: ["GS1"]),
        .library(name: "Datasheets", targets: ["Datasheets"]),
        .library(name: "Rules", targets: ["Rules"]),
        .library(name: "Inspection", targets: ["Inspection"]),
        .library(name: "Projections", targets: ["Projections"]),
        .library(name: "AuditService", targets: ["AuditService"]),
        .library(name: "PostgresLog", targets: ["PostgresLog"]),
        .library(name: "SampleData", targets: ["SampleData"]),
        .library(name: "WebPages", targets: ["WebPages"]),
        .library(name: "Proofs", targets: ["Proofs"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Persistent hash maps for the domain state (a working copy shares what it does not change).
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // The HTTP server (AuditServer) and its bench client.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // HTTPTypes on NIO's pipeline (AuditServer's handlers before and after HTTP decoding).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // The web pages' templates (WebPages).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // The PostgreSQL log store (PostgresLog).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // liblz4 from the system, wrapped the way GRDB wraps SQLite.
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        // libxml2 from the system: only pkg-config's header path and link flags, for CLibXML2Shim.
        // Its module map includes no libxml2 header; Swift imports CLibXML2Shim, never this.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libxml2's streaming reader behind plain C functions (GDSN CIN XML import): libxml2's
        // headers include the system ICU headers, which clash with Foundation's ICU module in a
        // Swift module, so they are compiled here in C and never seen by Swift.
        .target(name: "CLibXML2Shim", dependencies: ["CLibXML2"], linkerSettings: [.linkedLibrary("xml2")]),
        // SHA-256 from the system libcrypto, for the log's two small hashes per record.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // libvips (Debian's libvips42), opened on the first photo resize, behind a header of plain C
        // types: neither linked nor its headers read at build time (Sources/CVipsShim/cvipsshim.c).
        .target(name: "CVipsShim"),
        // CRC32C with the SSE4.2 instruction and a table fallback; C lives in C* shim targets only.
        .target(name: "CCRC32C"),
        // SQLite settings only reachable through variadic C (sqlite3_config).
        .target(name: "CSQLiteTuning", linkerSettings: [.linkedLibrary("sqlite3")]),
        // glibc's malloc_trim, which Swift's Glibc module does not export.
        .target(name: "CMallocTrim"),
        // The processor's prefetch hint, which Swift does not expose.
        .target(name: "CPrefetch"),
        // The one time type, its ISO 8601 text and the UTC calendar: a leaf with no imports.
        .target(name: "Chronology"),
        .target(
            name: "AuditLog",
            dependencies: [
                "Chronology",
                "CLZ4",
                "CCRC32C",
                "CLibCrypto",
                "CPrefetch",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The same log promises on PostgreSQL, for several servers sharing one log.
        .target(
            name: "PostgresLog",
            dependencies: [
                "AuditLog",
                "Chronology",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // GS1 identifiers: no dependencies.
        .target(name: "GS1"),
        // The signature headers' checks, a pure function with no dependencies (fuzzed alone).
        .target(name: "SignedRequestHeaders"),
        // The one seeded random generator (SplitMix64) for generated data, benchmarks and tests; a leaf.
        .target(name: "Seeded"),
        .target(name: "Datasheets", dependencies: ["GS1", "Seeded", "CLibXML2Shim", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "Rules",
            dependencies: ["Datasheets", "GS1", .product(name: "Logging", package: "swift-log")]
        ),
        // The inspection domain: events, commands, state machines, allocation. No storage imports.
        .target(
            name: "Inspection",
            dependencies: [
                "Chronology", "GS1", "Datasheets",
                .product(name: "HashTreeCollections", package: "swift-collections"),
            ],
            plugins: ["EventRegistryPlugin"]),
        // InspectionEvent's cases, `payload` and registry, generated at build time from the event
        // payload types in Sources/Inspection/Events (no swift-syntax: a scan of the declarations).
        .executableTarget(name: "EventRegistryGenerator"),
        .plugin(name: "EventRegistryPlugin", capability: .buildTool(), dependencies: ["EventRegistryGenerator"]),
        // Read models in SQLite, folded from the log with checkpoints (the top-level Projections/ folder).
        .target(
            name: "Projections",
            dependencies: [
                "AuditLog", "Chronology", "Inspection", "CSQLiteTuning",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Projections"
        ),
        // The application: owns a data directory, runs commands through one path. CLI and server call only this.
        .target(
            name: "AuditService",
            dependencies: [
                "AuditLog",
                "Chronology",
                "GS1",
                "Datasheets",
                "Rules",
                "Inspection",
                "Projections",
                "PostgresLog",
                "CMallocTrim",
                "CVipsShim",
                "Proofs",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The HTTP API (Hummingbird 2): auth, signatures, routing over AuditService only.
        .target(
            name: "AuditServer",
            dependencies: [
                "AuditService",
                "WebPages",
                "SignedRequestHeaders",
                "AuditLog",
                "Inspection",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // HTML pages with inline SVG charts from AuditService's answers; templates embedded by
        // tools/generate-report-templates from Sources/WebPages/Templates.
        .target(
            name: "WebPages",
            dependencies: ["AuditService", .product(name: "Mustache", package: "swift-mustache")],
            exclude: ["Templates"]
        ),
        // The seeded generator and the demo scenario, written through AuditService's command path.
        .target(
            name: "SampleData",
            dependencies: [
                "AuditService", "AuditLog", "Chronology", "GS1", "Datasheets", "Rules", "Inspection", "Seeded",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "Benchmarks",
            dependencies: [
                "AuditService",
                "AuditServer",
                "WebPages",
                "AuditLog",
                "Chronology",
                "GS1",
                "Datasheets",
                "Rules",
                "Inspection",
                "Projections",
                "PostgresLog",
                "Seeded",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                // bench serve: the HTTP client and the latency histogram.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The CLI's client of a running server's admin routes (`users … --server URL`): signed
        // requests and a bearer session, as a device sends them.
        .target(
            name: "ServerClient",
            dependencies: [
                "AuditServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "itemaudit",
            // Only the application and the edges: tools/check-imports fails on anything else.
            dependencies: [
                "AuditService",
                "AuditServer",
                "WebPages",
                "SampleData",
                "Benchmarks",
                "ServerClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the test targets share: temporary directories and the JSON Schema validator.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // A scratch database per test on the cluster tools/pg-cluster runs (ITEMAUDIT_TEST_PG_URL).
        .target(
            name: "PostgresTestSupport",
            dependencies: ["PostgresLog", .product(name: "Logging", package: "swift-log")],
            path: "Tests/PostgresTestSupport"
        ),
        // Fuzz targets and a seeded mutation harness (tools/fuzz); libFuzzer when built with -sanitize=fuzzer.
        .executableTarget(
            name: "itemaudit-fuzz",
            dependencies: [
                "AuditLog", "Chronology", "GS1", "Datasheets", "Inspection", "Rules", "SignedRequestHeaders", "Seeded",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/ItemAuditFuzz"
        ),
        .testTarget(
            name: "AuditLogTests",
            dependencies: [
                "AuditLog", "Chronology", "Seeded", .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "ChronologyTests", dependencies: ["Chronology"]),
        .testTarget(name: "GS1Tests", dependencies: ["GS1", "Seeded"]),
        .testTarget(name: "SignedRequestHeadersTests", dependencies: ["SignedRequestHeaders", "Seeded"]),
        .testTarget(
            name: "PostgresLogTests",
            dependencies: [
                "PostgresLog", "AuditLog", "Chronology", "PostgresTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The EventStore promises, run against the file log and PostgreSQL alike.
        .testTarget(
            name: "LogStoreConformanceTests",
            dependencies: [
                "AuditLog", "Chronology", "PostgresLog", "PostgresTestSupport", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "DatasheetsTests", dependencies: ["Datasheets"], exclude: ["Fixtures"]),
        .testTarget(
            name: "RulesTests", dependencies: ["Rules", "Datasheets", "Seeded", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "InspectionTests", dependencies: ["Chronology", "Inspection", "Seeded", "TestSupport"]),
        .testTarget(
            name: "ProjectionsTests",
            dependencies: [
                "Projections", "AuditLog", "Chronology", "Inspection", "AuditService", "SampleData", "Seeded",
                "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "AuditServiceTests",
            dependencies: [
                "AuditService", "SampleData", "AuditLog", "Chronology", "Inspection", "Datasheets", "Rules",
                "Projections",
                "TestSupport", "PostgresTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SampleDataTests",
            dependencies: [
                "SampleData", "AuditService", "AuditLog", "Chronology", "Inspection", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "AuditServerTests",
            dependencies: [
                "AuditServer", "AuditService", "Inspection", "WebPages",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "WebPagesTests",
            dependencies: [
                "WebPages", "AuditService", "SampleData", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "itemaudit", "AuditLog", "PostgresLog", "PostgresTestSupport", "TestSupport", "Proofs",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Snapshots"]),
        // RFC 6962 Merkle tree over the records, its proofs and their verification (#44).
        .target(name: "Proofs", dependencies: ["CLibCrypto", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "ProofsTests", dependencies: ["Proofs"]),
        .testTarget(
            name: "TransparencyTests",
            dependencies: [
                "AuditService", "AuditLog", "Chronology", "Proofs", "PostgresLog", "PostgresTestSupport", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
