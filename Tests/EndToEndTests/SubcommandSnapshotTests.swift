import Foundation
import Testing

/// Every subcommand run on the shared seeded demo: exit code, table and JSON output, compared with
/// the committed transcripts in Snapshots/.
@Suite("every subcommand's output, snapshotted")
struct SubcommandSnapshotTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `arguments` against the demo directory in table and JSON form.
    func both(_ arguments: [String], named name: String, status: Int32 = 0) throws {
        let demo = try DemoFixture.demo()
        for format in ["table", "json"] {
            let result = try Snapshot.run(
                arguments + ["--data", demo.directory.path, "--format", format], named: "\(name)-\(format)",
                replacing: [(demo.directory, "$DATA")])
            #expect(result.status == status, "\(name) --format \(format): \(result.stderr)")
        }
    }

    @Test("demo: the report of each user, then the next commands")
    func demo() throws {
        let demo = try DemoFixture.demo()
        let text = Snapshot.mask(#"\(\d+ s\)"#, with: "(N s)")(
            demo.output.stdout.replacingOccurrences(of: demo.directory.path, with: "$DATA"))
        Snapshot.check("exit \(demo.output.status)\n" + text, named: "demo")
        #expect(demo.output.stderr.isEmpty, "--quiet prints no progress: \(demo.output.stderr)")
    }

    @Test("verify") func verify() throws { try both(["verify"], named: "verify") }
    @Test("coverage") func coverage() throws { try both(["coverage", "--by", "type"], named: "coverage-type") }
    @Test("coverage by inspector in a period") func coverageInspector() throws {
        try both(
            ["coverage", "--by", "inspector", "--from", "2026-01-06", "--to", "2026-01-09T12:00:00Z"],
            named: "coverage-inspector")
    }
    @Test("inspectors") func inspectors() throws { try both(["inspectors"], named: "inspectors") }
    @Test("inspectors by week, coverage by day: a row per period with its change") func periods() throws {
        try both(["inspectors", "--by", "week"], named: "inspectors-week")
        try both(["coverage", "--by", "day"], named: "coverage-day")
    }
    @Test("product") func product() throws { try both(["product", try DemoFixture.demo().gtin], named: "product") }
    @Test("batch") func batch() throws { try both(["batch", "B1"], named: "batch") }
    @Test("batches of one inspector and status") func batches() throws {
        try both(["batches", "--status", "submitted", "--inspector", "inspector-3"], named: "batches")
    }
    @Test("overdue samples") func overdue() throws { try both(["overdue"], named: "overdue") }
    @Test("an unknown batch status is refused with the names to use") func badStatus() throws {
        let demo = try DemoFixture.demo()
        let result = try ItemAuditBinary.run(["batches", "--status", "done", "--data", demo.directory.path])
        #expect(result.status == 2 && result.stderr.contains("submitted"), "\(result.stderr)")
    }
    @Test("search") func search() throws { try both(["search", "kulta", "--limit", "3"], named: "search") }
    @Test("search --categories") func categories() throws { try both(["search", "--categories"], named: "categories") }
    @Test("history of a task") func history() throws { try both(["history", "--task", "B1-1"], named: "history-task") }
    @Test("history as of a time and as of a position") func historyAsOf() throws {
        try both(["history", "--batch", "B2", "--as-of", "2026-01-07T12:00:00Z"], named: "history-as-of-time")
        try both(["history", "--inspector", "inspector-3", "--as-of", "600"], named: "history-as-of-position")
    }
    @Test("history in a period") func historyPeriod() throws {
        try both(
            ["history", "--batch", "B2", "--from", "2026-01-06T08:35:00Z", "--to", "2026-01-06T08:46:00Z"],
            named: "history-period")
    }

    @Test("check the demo's supplier datasheets: failures exit 1") func check() throws {
        let demo = try DemoFixture.demo()
        // A relative path: the table's column widths must not depend on where the temporary directory is.
        for format in ["table", "json"] {
            let result = try Snapshot.run(
                ["check", "imports/supplier-datasheets.jsonl", "--format", format], named: "check-\(format)",
                replacing: [], currentDirectory: demo.directory)
            #expect(result.status == 1)
        }
    }

    @Test("rules list, show and lint") func rules() throws {
        for format in ["table", "json"] {
            let list = try Snapshot.run(
                ["rules", "list", "--set", "allergens", "--format", format], named: "rules-list-\(format)",
                replacing: [])
            #expect(list.status == 0)
            let show = try Snapshot.run(
                ["rules", "show", "ALG-003", "--format", format], named: "rules-show-\(format)", replacing: [])
            #expect(show.status == 0)
            let lint = try Snapshot.run(
                ["rules", "lint", "Schemas/rules/nutrition.rules", "--format", format],
                named: "rules-lint-\(format)", replacing: [], currentDirectory: Self.repository)
            #expect(lint.status == 0)
        }
    }

    @Test("rules lint of a file with problems: line and column are numbers") func rulesLintProblems() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("rule XYZ-001\n  severity: fatal\n  check: (1 +\n".utf8).write(
            to: scratch.appendingPathComponent("broken.rules"))
        for format in ["table", "json"] {
            let lint = try Snapshot.run(
                ["rules", "lint", "broken.rules", "--format", format], named: "rules-lint-problems-\(format)",
                replacing: [], currentDirectory: scratch)
            #expect(lint.status == 1)
        }
    }

    @Test("--format csv --excel on every command that prints CSV: a byte order mark, GTINs as text")
    func spreadsheetCSV() throws {
        let demo = try DemoFixture.demo()
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let excel = ["--format", "csv", "--excel"]
        let runs: [(name: String, arguments: [String], status: Int32, directory: URL?, stdin: Data?)] = [
            ("check", ["check", "imports/supplier-datasheets.jsonl"], 1, demo.directory, nil),
            ("gs1-parse", ["gs1", "parse", "(01)09506000134352(17)201225(10)ABC123", "06414893400016"], 0, nil, nil),
            ("rules-list", ["rules", "list", "--set", "allergens"], 0, nil, nil),
            ("rules-show", ["rules", "show", "ALG-003"], 0, nil, nil),
            (
                "record", ["record", "-", "--data", scratch.appendingPathComponent("record").path], 1, nil,
                Data((RecordGenerateTests.lines.joined(separator: "\n") + "\n").utf8)
            ),
            (
                "generate",
                [
                    "generate", "--data", scratch.appendingPathComponent("generate").path, "--seed", "3", "--days", "2",
                    "--products", "30", "--inspectors", "2", "--quiet",
                ], 0, nil, nil
            ),
            (
                "batches",
                ["batches", "--status", "submitted", "--inspector", "inspector-3", "--data", demo.directory.path], 0,
                nil, nil
            ),
        ]
        for run in runs {
            let result = try Snapshot.run(
                run.arguments + excel, named: "\(run.name)-csv-excel",
                replacing: [(demo.directory, "$DATA"), (scratch, "$TMP")], stdin: run.stdin,
                currentDirectory: run.directory)
            #expect(result.status == run.status, "\(run.name): \(result.stderr)")
            #expect(result.stdout.hasPrefix("\u{FEFF}"), "\(run.name) --excel starts with a UTF-8 byte order mark")
        }
    }

    @Test("gs1 parse: one valid and one invalid input exit 1") func gs1() throws {
        for format in ["table", "json"] {
            let result = try Snapshot.run(
                [
                    "gs1", "parse", "(01)09506000134352(17)201225(10)ABC123", "(01)09506000134352(17)210230",
                    "--format",
                    format,
                ],
                named: "gs1-parse-\(format)", replacing: [])
            #expect(result.status == 1)
        }
    }

    @Test("replay as of a position into a separate database") func replay() throws {
        let demo = try DemoFixture.demo()
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Seconds and events/s are measured, so they are masked.
        let timing = Snapshot.mask(#"(?m) +\d+\.\d\d +\d+ +then"#, with: "  S.SS  RATE  then")
        let timingJSON = Snapshot.mask(#"("(seconds|eventsPerSecond)" : )[0-9.]+"#, with: "$1MEASURED")
        for format in ["table", "json"] {
            let out = "then-\(format).sqlite"
            let result = try Snapshot.run(
                ["replay", "--data", demo.directory.path, "--until", "5000", "--out", out, "--format", format],
                named: "replay-\(format)", replacing: [(demo.directory, "$DATA")], currentDirectory: scratch,
                normalize: { timingJSON(timing($0)) })
            #expect(result.status == 0)
            #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent(out).path))
        }
    }

    @Test("generate a small history") func generate() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for format in ["table", "json"] {
            let result = try Snapshot.run(
                [
                    "generate", "--data", scratch.appendingPathComponent(format).path, "--seed", "3", "--days", "5",
                    "--products", "30", "--inspectors", "2", "--quiet", "--format", format,
                ], named: "generate-\(format)", replacing: [(scratch, "$TMP")])
            #expect(result.status == 0)
        }
    }

    @Test("record: accepted, refused, invalid and duplicate lines") func record() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = Data((RecordGenerateTests.lines.joined(separator: "\n") + "\n").utf8)
        for format in ["table", "json"] {
            let result = try Snapshot.run(
                ["record", "-", "--data", scratch.appendingPathComponent(format).path, "--format", format],
                named: "record-\(format)", replacing: [(scratch, "$TMP")], stdin: input)
            #expect(result.status == 1)
        }
    }

    @Test("bench: help only (no benchmark runs in tests)") func bench() throws {
        for command in [["bench"], ["bench", "log"], ["bench", "replay"], ["bench", "rules"], ["bench", "gs1"]] {
            let result = try ItemAuditBinary.run(command + ["--help"])
            #expect(result.status == 0)
            #expect(result.stdout.contains("Example:"), "\(command)")
        }
    }
}
