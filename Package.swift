// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ItemAudit",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "itemaudit", targets: ["itemaudit"]),
        .library(name: "AuditLog", targets: ["AuditLog"]),
        .library(name: "GS1", targets: ["GS1"]),
        .library(name: "Datasheets", targets: ["Datasheets"]),
        .library(name: "Rules", targets: ["Rules"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // liblz4 from the system, wrapped the way GRDB wraps SQLite.
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        .target(
            name: "AuditLog",
            dependencies: [
                "CLZ4",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // GS1 identifiers: no dependencies.
        .target(name: "GS1"),
        .target(name: "Datasheets", dependencies: ["GS1", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "Rules",
            dependencies: ["Datasheets", "GS1", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "Benchmarks", dependencies: ["AuditLog", "GS1", "Datasheets", "Rules"]),
        .executableTarget(
            name: "itemaudit",
            dependencies: [
                "AuditLog",
                "Benchmarks",
                "GS1",
                "Datasheets",
                "Rules",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "AuditLogTests", dependencies: ["AuditLog"]),
        .testTarget(name: "GS1Tests", dependencies: ["GS1"]),
        .testTarget(name: "DatasheetsTests", dependencies: ["Datasheets"]),
        .testTarget(name: "RulesTests", dependencies: ["Rules", "Datasheets"], resources: [.copy("Fixtures")]),
        .testTarget(name: "EndToEndTests", dependencies: ["itemaudit"]),
    ],
    swiftLanguageModes: [.v6]
)
