// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ItemAudit",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "itemaudit", targets: ["itemaudit"]),
        .library(name: "AuditLog", targets: ["AuditLog"]),
        .library(name: "GS1", targets: ["GS1"]),
        .library(name: "Inspection", targets: ["Inspection"]),
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
        // The inspection domain: events, commands, state machines, allocation. No storage imports.
        .target(name: "Inspection", dependencies: ["GS1"]),
        .target(name: "Benchmarks", dependencies: ["AuditLog", "GS1"]),
        .executableTarget(
            name: "itemaudit",
            dependencies: [
                "AuditLog",
                "Benchmarks",
                "GS1",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "AuditLogTests", dependencies: ["AuditLog"]),
        .testTarget(name: "GS1Tests", dependencies: ["GS1"]),
        .testTarget(name: "InspectionTests", dependencies: ["Inspection"]),
        .testTarget(name: "EndToEndTests", dependencies: ["itemaudit"]),
    ],
    swiftLanguageModes: [.v6]
)
