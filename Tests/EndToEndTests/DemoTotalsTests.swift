import Foundation
import Testing

/// The demo's numbers agree: every total it prints equals the sum of its table rows, and each
/// table equals the same report run afterwards.
@Suite("the demo's totals agree with its tables and the reports run afterwards")
struct DemoTotalsTests {
    /// One day whose wholesale batches (up to 100 cases) run past the devices' 18:00 upload: the
    /// case where the demo counted 155 inspections in its coverage table and 186 in its header.
    static let arguments = [
        "--seed", "5", "--days", "1", "--products", "1000", "--inspectors", "4", "--datasheets", "1", "--quiet",
    ]

    @Test("header, coverage tables and inspector table agree with each other and with the commands")
    func totalsAgree() throws {
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appendingPathComponent("demo")
        let demo = try ItemAuditBinary.run(["demo", "--data", data.path] + Self.arguments)
        try #require(demo.status == 0, "demo: \(demo.stderr)")
        let text = demo.stdout

        let header = try #require(
            PrintedTable.numbers(in: text, pattern: #"(\d+) inspections? \((\d+) failed\), (\d+) photos?"#),
            "the header names inspections, failures and photos:\n\(text)")
        let (inspections, failed, photos) = (header[0], header[1], header[2])

        let byType = try PrintedTable.section(of: text, after: "== Manager: coverage by product type")
        let byMode = try PrintedTable.section(of: text, after: "by inspection mode:")
        let inspectors = try PrintedTable.section(of: text, after: "== Manager: inspector analytics")
        #expect(byType.sum(PrintedTable.Column.inspections) == inspections, "coverage by type vs header")
        #expect(byMode.sum(PrintedTable.Column.inspections) == inspections, "coverage by mode vs header")
        #expect(inspectors.sum(PrintedTable.Column.inspected) == inspections, "inspectors vs header")
        #expect(inspectors.sum(PrintedTable.Column.failed) == failed, "inspectors' failures vs header")
        #expect(inspectors.sum(PrintedTable.Column.photos) == photos, "inspectors' photos vs header")

        // The same reports afterwards, as a user would run them.
        for (grouping, printed) in [("type", byType), ("mode", byMode)] {
            let after = try ItemAuditBinary.run(["coverage", "--by", grouping, "--data", data.path])
            #expect(after.status == 0, "coverage --by \(grouping): \(after.stderr)")
            let rerun = try PrintedTable(after.stdout)
            #expect(rerun.rows == printed.rows, "coverage --by \(grouping) afterwards differs from the demo's table")
        }
        let after = try ItemAuditBinary.run(["inspectors", "--data", data.path])
        #expect(try PrintedTable(after.stdout).rows == inspectors.rows, "inspectors afterwards differs")

        // The overdue list names exactly the products coverage counts as overdue.
        let overdue = try ItemAuditBinary.run(["overdue", "--data", data.path, "--format", "json"])
        let listed = try JSONSerialization.jsonObject(with: Data(overdue.stdout.utf8)) as? [[String: Any]]
        // (BatchListTests checks a history where one is overdue; here the count may be 0.)
        let counted = byType.sum(PrintedTable.Column.overdue)
        #expect(listed?.count == counted, "overdue lists \(listed?.count ?? -1), coverage counts \(counted)")
        // And the batch list holds every batch the header counts.
        let batches = try ItemAuditBinary.run(["batches", "--data", data.path, "--format", "json"])
        let allBatches = try JSONSerialization.jsonObject(with: Data(batches.stdout.utf8)) as? [[String: Any]]
        let headerBatches = PrintedTable.numbers(in: text, pattern: #"(\d+) batch(es)? \("#)?.first
        #expect(
            allBatches?.count == headerBatches, "batches lists \(allBatches?.count ?? -1) of \(headerBatches ?? -1)")
    }
}

/// A table as the CLI prints it: a header line, a rule of dashes, rows with cells two spaces apart.
struct PrintedTable: Equatable {
    /// The column names the totals test reads.
    enum Column {
        static let inspections = "inspections"
        static let inspected = "inspected"
        static let failed = "failed"
        static let photos = "photos"
        static let overdue = "overdue"
    }

    var columns: [String]
    var rows: [[String]]

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(_ text: String) throws {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2, lines[1].allSatisfy({ $0 == "-" || $0 == " " }) else {
            throw Failure(description: "not a table:\n\(text)")
        }
        func cells(_ line: String) -> [String] {
            line.split(separator: "  ", omittingEmptySubsequences: true).map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
        }
        columns = cells(lines[0])
        rows = lines.dropFirst(2).prefix { !$0.isEmpty }.map(cells)
    }

    /// The table that starts on the line after the one beginning with `marker`.
    static func section(of text: String, after marker: String) throws -> PrintedTable {
        guard let start = text.range(of: marker) else { throw Failure(description: "no '\(marker)' in:\n\(text)") }
        let rest = text[start.upperBound...].drop { $0 != "\n" }.dropFirst()
        return try PrintedTable(String(rest))
    }

    /// The integers `pattern`'s capture groups match in `text`, or nil when it does not match.
    static func numbers(in text: String, pattern: String) -> [Int]? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
        else { return nil }
        return (1..<match.numberOfRanges).compactMap { index in
            Range(match.range(at: index), in: text).flatMap { Int(text[$0]) }
        }
    }

    /// The sum of a numeric column (-1 when there is no such column, so the comparison fails loudly).
    func sum(_ column: String) -> Int {
        guard let index = columns.firstIndex(of: column) else { return -1 }
        return rows.reduce(0) { $0 + (index < $1.count ? Int($1[index]) ?? 0 : 0) }
    }
}
