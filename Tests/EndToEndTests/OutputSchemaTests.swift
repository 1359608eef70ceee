import Foundation
import TestSupport
import Testing

/// The JSON every command prints validates against `Schemas/output/`.
///
/// The JSON checked is the committed end-to-end transcripts' (Snapshots/): `SubcommandSnapshotTests`
/// proves the built binary prints exactly that, this suite that it is what the schemas promise to
/// scripts and the server. `record` prints JSON Lines: each line validates on its own.
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
        ("verify-json", "verify"), ("check-json", "check"), ("rules-list-json", "rules-list"),
        ("rules-show-json", "rules-show"), ("rules-lint-json", "rules-lint"),
        ("rules-lint-problems-json", "rules-lint"),
        ("gs1-parse-json", "gs1-parse"), ("record-json", "record"),
    ]

    /// Commands whose JSON output is one object per line.
    static let jsonLines: Set<String> = ["record-json"]

    static func schema(_ name: String) throws -> [String: Any] {
        let url = repository.appendingPathComponent("Schemas/output/\(name).json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The stdout text of a transcript.
    static func stdoutText(_ snapshot: String) throws -> String {
        let url = repository.appendingPathComponent("Tests/EndToEndTests/Snapshots/\(snapshot).txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: "--- stdout\n"))
        let end = try #require(text.range(of: "\n--- stderr", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// The stdout of a transcript, with measured values (masked as MEASURED) read as 0; for JSON
    /// Lines, the array of its lines' values.
    static func stdout(_ snapshot: String) throws -> Any {
        let json = try stdoutText(snapshot).replacingOccurrences(of: "MEASURED", with: "0")
        guard jsonLines.contains(snapshot) else { return try JSONSerialization.jsonObject(with: Data(json.utf8)) }
        return try json.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
    }

    /// Every key of every object in `value`, at any depth.
    static func keys(in value: Any) -> Set<String> {
        switch value {
        case let object as [String: Any]: Set(object.keys).union(object.values.flatMap { keys(in: $0) })
        case let array as [Any]: array.reduce(into: Set<String>()) { $0.formUnion(keys(in: $1)) }
        default: []
        }
    }

    @Test("every command's JSON transcript validates", arguments: transcripts.map(\.snapshot))
    func validates(_ snapshot: String) throws {
        let name = try #require(Self.transcripts.first { $0.snapshot == snapshot }?.schema)
        let output = try Self.stdout(snapshot)
        let values = Self.jsonLines.contains(snapshot) ? try #require(output as? [Any]) : [output]
        let schema = try Self.schema(name)
        let problems = values.flatMap { JSONSchemaValidator.validate($0, against: schema) }
        #expect(!values.isEmpty)
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

    @Test("the new schemas reject what these commands printed before: strings for numbers, a verdict without its label")
    func newSchemasCatchTheOldStyle() throws {
        let lint: [[String: Any]] = [["file": "a.rules", "line": "3", "column": "7", "kind": "syntax", "message": "m"]]
        #expect(!JSONSchemaValidator.validate(lint, against: try Self.schema("rules-lint")).isEmpty)
        var check = try #require(try Self.stdout("check-json") as? [String: Any])
        var sheets = try #require(check["datasheets"] as? [[String: Any]])
        sheets[0]["verdictLabel"] = nil
        check["datasheets"] = sheets
        #expect(!JSONSchemaValidator.validate(check, against: try Self.schema("check")).isEmpty)
        let record: [String: Any] = ["line": 4, "status": "invalid", "error": "missing field"]
        #expect(!JSONSchemaValidator.validate(record, against: try Self.schema("record")).isEmpty)
    }

    @Test("gs1 parse and record print JSON like every command: gs1 pretty-printed, no escaped slashes")
    func oneStyle() throws {
        #expect(try Self.stdoutText("gs1-parse-json").hasPrefix("[\n  {\n"))
        #expect(try !Self.stdoutText("record-json").contains("\\/"))
        #expect(try Self.stdoutText("record-json").contains("Schemas/commands/"))
    }

    @Test(
        "table and CSV headers are JSON keys",
        arguments: [
            ("coverage-type-table", "coverage-type-json"), ("inspectors-table", "inspectors-json"),
            ("batches-table", "batches-json"), ("check-table", "check-json"), ("gs1-parse-table", "gs1-parse-json"),
            ("rules-list-table", "rules-list-json"),
        ])
    func tableHeadersAreKeys(_ table: String, _ snapshot: String) throws {
        let lines = try Self.stdoutText(table).split(separator: "\n")
        let header = try #require(lines.first).split(separator: " ").map(String.init)
        let keys = Self.keys(in: try Self.stdout(snapshot))
        #expect(header.allSatisfy(keys.contains), "\(table) headers \(header) not all in \(keys.sorted())")
    }

    @Test(
        "CSV headers (--excel) are JSON keys, and GTINs keep their leading zeros",
        arguments: [
            ("check-csv-excel", "check-json"), ("gs1-parse-csv-excel", "gs1-parse-json"),
            ("rules-list-csv-excel", "rules-list-json"), ("batches-csv-excel", "batches-json"),
            ("rules-show-csv-excel", "rules-show-json"), ("generate-csv-excel", "generate-json"),
        ])
    func csvHeadersAreKeys(_ csv: String, _ snapshot: String) throws {
        let text = try Self.stdoutText(csv)
        #expect(text.hasPrefix("\u{FEFF}"))
        let lines = text.dropFirst().split(separator: "\n")
        let header = try #require(lines.first).split(separator: ",").map(String.init)
        let keys = Self.keys(in: try Self.stdout(snapshot))
        #expect(header.allSatisfy(keys.contains), "\(csv) headers \(header) not all in \(keys.sorted())")
        if header.contains("gtin") {
            #expect(text.contains("\"=\"\"0"), "\(csv): a GTIN with a leading zero is written as text")
        }
    }

    @Test(
        "a one-object report's table lists JSON keys as its fields",
        arguments: [
            ("generate-table", "generate-json"), ("rules-show-table", "rules-show-json"),
        ])
    func fieldsAreKeys(_ table: String, _ snapshot: String) throws {
        let lines = try Self.stdoutText(table).split(separator: "\n").dropFirst(2)
        let fields = lines.compactMap { $0.split(separator: " ").first.map(String.init) }
        let keys = Self.keys(in: try Self.stdout(snapshot))
        #expect(
            !fields.isEmpty && fields.allSatisfy(keys.contains), "\(table) fields \(fields) not all in \(keys.sorted())"
        )
    }

    @Test("record's CSV header names the properties of its schema") func recordHeader() throws {
        let text = try Self.stdoutText("record-csv-excel")
        let header = try #require(text.dropFirst().split(separator: "\n").first).split(separator: ",")
        let properties = Set((try Self.schema("record")["properties"] as? [String: Any] ?? [:]).keys)
        for column in header.map(String.init) {
            #expect(properties.contains(column), "\(column) is no property of Schemas/output/record.json")
        }
    }
}
