import Foundation
import Testing

/// The JSON the report commands print validates against `Schemas/output/`.
///
/// The JSON checked is the committed end-to-end transcripts' (Tests/EndToEndTests/Snapshots):
/// the snapshot tests prove the built binary prints exactly that, this suite that it is what the
/// schemas promise to scripts and the server.
@Suite("report output validates against Schemas/output")
struct OutputSchemaTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Each JSON transcript of a report command, and the schema its stdout follows.
    static let transcripts: [(snapshot: String, schema: String)] = [
        ("batch-json", "batch"), ("batches-json", "batches"), ("overdue-json", "overdue"),
        ("categories-json", "categories"), ("coverage-type-json", "coverage"),
        ("coverage-inspector-json", "coverage"), ("inspectors-json", "inspectors"),
        ("inspectors-week-json", "inspectors"),
        ("coverage-day-json", "coverage"), ("product-json", "product"),
        ("search-json", "search"), ("history-task-json", "history"), ("history-as-of-time-json", "history"),
        ("history-as-of-position-json", "history"), ("history-period-json", "history"), ("replay-json", "replay"),
        ("generate-json", "generate"),
        ("verify-json", "verify"),
    ]

    static func schema(_ name: String) throws -> [String: Any] {
        let url = repository.appendingPathComponent("Schemas/output/\(name).json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The stdout of a transcript, with measured values (masked as MEASURED) read as 0.
    static func stdout(_ snapshot: String) throws -> Any {
        let url = repository.appendingPathComponent("Tests/EndToEndTests/Snapshots/\(snapshot).txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: "--- stdout\n"))
        let end = try #require(text.range(of: "\n--- stderr", range: start.upperBound..<text.endIndex))
        let json = text[start.upperBound..<end.lowerBound].replacingOccurrences(of: "MEASURED", with: "0")
        return try JSONSerialization.jsonObject(with: Data(json.utf8))
    }

    @Test("every report transcript validates", arguments: transcripts.map(\.snapshot))
    func validates(_ snapshot: String) throws {
        let name = try #require(Self.transcripts.first { $0.snapshot == snapshot }?.schema)
        let problems = JSONSchemaValidator.validate(try Self.stdout(snapshot), against: try Self.schema(name))
        #expect(
            problems.isEmpty, "\(snapshot) against Schemas/output/\(name).json:\n\(problems.joined(separator: "\n"))")
    }

    @Test("the schemas reject what the old style printed: epoch times, a code without its label")
    func schemasCatchTheOldStyle() throws {
        let history = try Self.schema("history")
        let old: [[String: Any]] = [
            [
                "actor": "a", "eventType": "BatchAllocated", "occurredAt": 1_767_598_260_000_000, "position": 1,
                "recordedAt": "2026-01-05T07:30:00Z", "summary": "s",
            ]
        ]
        #expect(!JSONSchemaValidator.validate(old, against: history).isEmpty)
        var batch = try #require(try Self.stdout("batch-json") as? [String: Any])
        batch["statusLabel"] = nil
        #expect(!JSONSchemaValidator.validate(batch, against: try Self.schema("batch")).isEmpty)
    }

    @Test("CSV headers are the JSON keys") func csvHeadersAreKeys() throws {
        for (table, snapshot) in [
            ("coverage-type-table", "coverage-type-json"), ("inspectors-table", "inspectors-json"),
        ] {
            let url = Self.repository.appendingPathComponent("Tests/EndToEndTests/Snapshots/\(table).txt")
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            let header = try #require(lines.dropFirst(3).first).split(separator: " ").map(String.init)
            let keys = Set((try Self.stdout(snapshot) as? [[String: Any]])?.first?.keys.map { $0 } ?? [])
            #expect(header.allSatisfy(keys.contains), "\(table) headers \(header) not all in \(keys.sorted())")
        }
    }
}
