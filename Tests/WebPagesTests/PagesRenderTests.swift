import AuditService
import Foundation
import WebPages
import Testing

/// Every page draws on generated demo-like data; each chart's numbers equal its table's, and the
/// tables equal what AuditQueries (the CLI's JSON) answers for the same query.
@Suite("Pages render", .serialized)
struct PagesRenderTests {
    /// The parameters that give each page a subject in the fixture.
    static func parameters(_ page: PageName, _ fixture: ReportFixture) throws -> [[String: String]] {
        let batch = try fixture.queries.batches().first?.batchID ?? "B1"
        let gtin = try fixture.queries.search(ProductFilter(text: "jogurtti"), limit: 1).items.first?.gtin ?? ""
        switch page {
        case .product: return [["gtin": gtin]]
        case .batch: return [[:], ["batch": batch]]
        case .history: return [[:], ["gtin": gtin], ["batch": batch], ["inspector": "inspector-1"]]
        case .search: return [["q": "jogurtti"], [:]]
        case .coverage: return [[:], ["by": "week"]]
        case .receptions:
            return [[:]] + (try fixture.queries.receptions(limit: 1).items.map { ["reception": $0.receptionID] })
        default: return [[:]]
        }
    }

    @Test func everyPageRendersWithItsChartsMatchingItsTables() async throws {
        let fixture = try await ReportFixture()
        let pages = fixture.pages()
        for page in PageName.allCases {
            for parameters in try Self.parameters(page, fixture) {
                let rendered = try await pages.render(page, parameters: parameters, viewer: ReportFixture.manager)
                #expect(rendered.status == 200, "\(page) \(parameters): \(rendered.status)")
                let parsed = ParsedPage(html: rendered.html)
                #expect(rendered.html.hasPrefix("<!doctype html>\n<html lang=\"en\">"))
                #expect(rendered.html.contains("<title>\(rendered.title.htmlEscaped) · ItemAudit</title>"))
                #expect(rendered.html.utf8.count < 1_000_000, "\(page) is \(rendered.html.utf8.count) bytes")
                for id in parsed.chartIDs {
                    try checkChart(id, in: parsed, page: "\(page) \(parameters)")
                }
                // Every table has a CSV, and the CSV holds the same rows.
                for (name, table) in parsed.tables {
                    let csv = try await pages.renderCSV(
                        page, table: name, parameters: parameters, viewer: ReportFixture.manager)
                    let lines = csv.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast()
                    #expect(lines.count == table.rows.count + 1, "\(page) \(name)")
                }
            }
        }
    }

    /// The numbers of chart `id` are the numbers of the table beside it (`chart-T` ↔ table `T`).
    func checkChart(_ id: String, in page: ParsedPage, page name: String) throws {
        let tableName = String(id.dropFirst("chart-".count))
        let table = try #require(page.tables[tableName], "\(name): chart \(id) has no table \(tableName)")
        let svg = try #require(page.chart(id))
        #expect(svg.contains("role=\"img\"") && svg.contains("<title id=\"\(id)-title\">"), "\(name) \(id)")
        let marks = page.marks(id)
        #expect(!marks.isEmpty || table.rows.isEmpty, "\(name): chart \(id) shows no numbers")
        for mark in marks {
            let key: [String]
            let column: String
            if let panel = mark.panel {
                key = [panel, mark.label ?? ""]
                column = mark.series
            } else if let label = mark.label {
                key = [label]
                column = mark.series
            } else {
                key = [mark.series]
                column = "events"
            }
            #expect(
                table.cell(row: key, column: column) == String(mark.value),
                "\(name): chart \(id) shows \(key) \(column) = \(mark.value), its table \(table.cell(row: key, column: column) ?? "nothing")"
            )
        }
    }

    /// The server lists every page but those reached by a link naming their subject; the pages
    /// come from `PageName.listing`, so a new page is listed by saying where in one switch.
    @Test func theNavigationBarListsThePagesInOrder() async throws {
        let fixture = try await ReportFixture()
        let rendered = try await fixture.pages().render(.dashboard, parameters: [:], viewer: ReportFixture.manager)
        #expect(
            ParsedPage(html: rendered.html).navigation
                == ["Dashboard", "Coverage", "Inspectors", "Batches", "History", "Search", "Categories", "Rule checks"])
    }

    @Test func coverageTablesEqualTheQueries() async throws {
        let fixture = try await ReportFixture()
        let rendered = try await fixture.pages().render(.coverage, parameters: [:], viewer: ReportFixture.manager)
        let tables = ParsedPage(html: rendered.html).tables
        for grouping in [CoverageGrouping.type, .mode, .location, .inspector] {
            let rows = try fixture.queries.coverage(by: grouping, now: fixture.now)
            let table = try #require(tables["coverage-\(grouping.rawValue)"])
            #expect(table.rows.count == rows.count)
            for row in rows {
                let label = row.groupLabel.htmlEscaped
                #expect(table.cell(row: [label], column: "catalogue") == String(row.catalogue))
                #expect(table.cell(row: [label], column: "inspected") == String(row.inspected))
                #expect(table.cell(row: [label], column: "inspections") == String(row.inspections))
                #expect(table.cell(row: [label], column: "percent") == String(format: "%.1f", row.percent))
                #expect(table.cell(row: [label], column: "overdue") == row.overdue.map(String.init) ?? "")
            }
        }
    }

    @Test func inspectorAndBatchTablesEqualTheQueries() async throws {
        let fixture = try await ReportFixture()
        let pages = fixture.pages()
        let inspectors = try fixture.queries.inspectors()
        let table = try #require(
            ParsedPage(html: try await pages.render(.inspectors, parameters: [:], viewer: ReportFixture.manager).html)
                .tables["inspectors"])
        #expect(table.rows.count == inspectors.count)
        for row in inspectors {
            #expect(table.cell(row: [row.name], column: "passed") == String(row.passed))
            #expect(table.cell(row: [row.name], column: "failed") == String(row.failed))
            #expect(table.cell(row: [row.name], column: "collected") == String(row.collected))
        }
        let batch = try #require(try fixture.queries.batches().first)
        let report = try #require(try fixture.queries.batch(batch.batchID))
        let tasks = try #require(
            ParsedPage(
                html: try await pages.render(
                    .batch, parameters: ["batch": batch.batchID], viewer: ReportFixture.manager
                )
                .html
            ).tables["tasks"])
        #expect(tasks.rows.map { $0.first ?? "" } == report.tasks.map(\.taskID))
        let counts = try fixture.queries.batchStatusCounts()
        let dashboard = ParsedPage(
            html: try await pages.render(.dashboard, parameters: [:], viewer: ReportFixture.manager).html)
        let open = try #require(dashboard.tables["open-batches"])
        for status in 0...5 {
            #expect(
                open.cell(row: [ReportLabels.batchStatus(status)], column: "batches") == String(counts[status] ?? 0))
        }
    }

    @Test func badParametersAreErrorPagesNamingTheParameter() async throws {
        let fixture = try await ReportFixture()
        let pages = fixture.pages()
        let cases: [(PageName, [String: String], Int, String)] = [
            (.coverage, ["from": "yesterday"], 400, "from &#39;yesterday&#39;"),
            (.coverage, ["by": "colour"], 400, "by &#39;colour&#39;"),
            (.coverage, ["from": "2026-01-10", "to": "2026-01-08"], 400, "must be before"),
            (.coverage, ["from": "2099-01-01"], 400, "is in the future"),
            (.product, ["gtin": "12345678901231"], 404, "never mentions"),
            (.product, ["gtin": "<x>"], 400, "gtin &#39;&lt;x&gt;&#39;"),
            (.batch, ["batch": "B999999"], 404, "no batch B999999"),
            (.history, ["gtin": "1", "batch": "B1"], 400, "not gtin and batch"),
            (.history, ["gtin": "06414890000011", "as-of": "99999999"], 400, "beyond the end of the log"),
        ]
        for (page, parameters, status, text) in cases {
            let rendered = try await pages.render(page, parameters: parameters, viewer: ReportFixture.manager)
            #expect(rendered.status == status, "\(page) \(parameters)")
            #expect(rendered.html.contains(text), "\(page) \(parameters): \(rendered.html.prefix(2000))")
        }
        await #expect(throws: ReportError.self) {
            try await pages.renderCSV(.coverage, table: "nope", parameters: [:], viewer: ReportFixture.manager)
        }
    }

    @Test func anInspectorSeesOnlyTheirOwnWork() async throws {
        let fixture = try await ReportFixture()
        let pages = fixture.pages()
        let inspector = PageViewer(userID: "inspector-1", role: .inspector, csrfToken: "t")
        let coverage = try await pages.render(.coverage, parameters: [:], viewer: inspector)
        #expect(coverage.status == 403)
        let list = ParsedPage(html: try await pages.render(.batch, parameters: [:], viewer: inspector).html)
        let batches = try #require(list.tables["batches"])
        #expect(!batches.rows.isEmpty)
        #expect(batches.rows.allSatisfy { $0[safe: 3] == "inspector-1" })
        let other = try #require(try fixture.queries.batches().first { $0.inspectorID != "inspector-1" })
        let refused = try await pages.render(.batch, parameters: ["batch": other.batchID], viewer: inspector)
        #expect(refused.status == 403)
        let analytics = ParsedPage(html: try await pages.render(.inspectors, parameters: [:], viewer: inspector).html)
        #expect(try #require(analytics.tables["inspectors"]).rows.map { $0[safe: 1] } == ["inspector-1"])
    }
}

extension String {
    /// As the pages print text.
    var htmlEscaped: String {
        replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
