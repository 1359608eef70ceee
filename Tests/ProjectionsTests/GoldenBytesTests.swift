import AuditLog
import AuditService
import Foundation
import GRDB
import Logging
import SampleData
import TestSupport
import Testing

/// A seeded demo (history, datasheet checks, accounts) written to a fresh directory must give the
/// log head and the read models recorded here: a change that moves a byte of either (a time's
/// text in a fingerprinted command line, a day boundary in a projection) fails this test.
///
/// The constants were recorded from the code before issue #39's single time type; they change
/// only with a deliberate change of the log's or the projections' format.
@Suite("Golden bytes: the same seeded history gives the same head and the same projections")
struct GoldenBytesTests {
    static let configuration = DemoScenario.Configuration(
        history: WorkloadGenerator.Configuration(seed: 7, inspectors: 3, locations: 4, products: 120, days: 4),
        supplierDatasheets: 30)

    static let expectedEvents: UInt64 = 14071
    // Re-recorded after merging #41 (UserAdded v2, receptions) and #43 (ProductRegistered v2 with
    // a list of children): the log's bytes and the product, product_child and reception tables.
    static let expectedHead = "106ffde590aadfe58689bcc62958c479857058e0705bcb1fd739dbce686ad8e8"
    /// Per table, its row count and the SHA-256 (cut to 128 bits) of its rows: every column,
    /// rows sorted.
    static let expectedTables: [String: String] = [
        "batch": "11:2fcffc1a21efa1d067326b7929ec591b",
        "batch_task": "265:d3eb2d3d3f2779f7836997b45cce22ac",
        "coverage_listing": "254:fb61d5da7453c7d1f2499b664e00b1f4",
        "coverage_product": "120:2f6052e2b02a94241eb38e45de68f627",
        "grdb_migrations": "1:7105c2335143108e1ffab62232f18a46",
        "inspector": "5:c2220f22fe2e8383f911a4a7c47aa4a1",
        "inspector_day": "11:2d167966e1d0ffbf99939cf4059bd8fe",
        "inspector_open_timer": "0:e3b0c44298fc1c149afbf4c8996fb924",
        "photo": "310:ff3f9c7bdaa2b758742577bf7f6a5917",
        "product": "120:57c9ed01dda5aef017e896d6830e1340",
        "product_child": "42:3bddfb1d97c386068a9cc74c276d4593",
        "product_fts": "120:b48842dcc33c6a8685c0cec74e043754",
        "projection_checkpoint": "7:2ae359f612bdeb6e7fb22e8581bedca6",
        "quality_inspection": "244:1797c7b5be197586e531b8beffda813c",
        "quality_open_task": "0:e3b0c44298fc1c149afbf4c8996fb924",
        "quality_rule_check": "150:36057658fcaf7ee64fcab5536737732b",
        "reception": "8:bc4b1812941c435b09e979ddf48708e2",
        "task": "267:2ced7abd61d22e2ea15cc194fafdc8dd",
    ]

    @Test("the demo's log head and every projection table's rows are byte for byte as recorded")
    func headAndProjectionsAreAsRecorded() async throws {
        try await withTemporaryDirectory { directory in
            let logger = Logger(label: "golden") { _ in SwiftLogNoOpLogHandler() }
            let report = try await DemoScenario(configuration: Self.configuration, logger: logger).run(
                in: directory, step: { _ in })
            let data = DataDirectory(directory)
            let verified = try AuditQueries.verify(data)
            #expect(verified.isIntact)
            #expect(verified.eventCount == Self.expectedEvents)
            #expect(verified.headHash == Self.expectedHead)
            #expect(report.verification.headHash == verified.headHash)

            let rebuilt = try Self.tableDigests(data.projections)
            #expect(rebuilt == Self.expectedTables)
            // A replay into a new file folds the same log to the same rows.
            try await withTemporaryDirectory { elsewhere in
                let replayed = elsewhere.appendingPathComponent("replayed.sqlite")
                _ = try AuditQueries.open(data, logger: logger).replay(into: replayed)
                #expect(try Self.tableDigests(replayed) == rebuilt)
            }
        }
    }

    /// Per table of the database at `url` (SQLite's own and the full-text index's internal
    /// tables aside, whose bytes are SQLite's business), the digest of its rows: each row as
    /// `column=value` for every column, typed, rows sorted.
    static func tableDigests(_ url: URL) throws -> [String: String] {
        let queue = try DatabaseQueue(path: url.path)
        return try queue.read { db in
            let tables = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                      AND name NOT LIKE '%_fts_%' ORDER BY name
                    """)
            var digests: [String: String] = [:]
            for table in tables {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { row in
                    row.columnNames.enumerated().map { index, name in "\(name)=\(text(row[index] as DatabaseValue))" }
                        .joined(separator: "\u{1F}")
                }
                let content = rows.sorted().joined(separator: "\n")
                digests[table] = "\(rows.count):" + CommandFingerprint(sha256Of: Array(content.utf8)).description
            }
            return digests
        }
    }

    /// A stored value with its type, independent of how GRDB prints rows.
    private static func text(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "null"
        case .int64(let number): "i\(number)"
        case .double(let number): "d\(number.bitPattern)"
        case .string(let string): "s\(string)"
        case .blob(let data): "b" + data.map { String($0, radix: 16) }.joined(separator: ".")
        }
    }
}
