import AuditService
import Foundation
import WebPages
import Testing

/// Supplier-given text is printed escaped everywhere (text, attributes, SVG), long and
/// right-to-left names cannot spill out of their cells, and every page meets the basics of
/// accessibility: a language, a title, a label for every field, a text alternative and a table
/// for every chart.
@Suite("Escaping and accessibility", .serialized)
struct EscapingAndAccessibilityTests {
    @Test func hostileProductNamesArePrintedEscapedAndKeepTheLayout() async throws {
        let fixture = try await ReportFixture()
        let pages = fixture.pages()
        var drawn: [(String, String)] = []
        let search = try await pages.render(.search, parameters: ["q": "jogurtti"], viewer: ReportFixture.manager)
        drawn.append(("search", search.html))
        for product in ReportFixture.hostileProducts {
            let page = try await pages.render(
                .product, parameters: ["gtin": product.gtin], viewer: ReportFixture.manager)
            #expect(page.status == 200)
            #expect(page.html.contains("<h1>" + product.name.htmlEscaped + " (" + product.gtin + ")</h1>"))
            drawn.append((product.gtin, page.html))
            let history = try await pages.render(
                .history, parameters: ["gtin": product.gtin], viewer: ReportFixture.manager)
            drawn.append(("history " + product.gtin, history.html))
        }
        drawn.append(
            ("categories", try await pages.render(.categories, parameters: [:], viewer: ReportFixture.manager).html))
        for (name, html) in drawn {
            for raw in ["<script>", "<b>bold", "<i>Brand", "<Yoghurt>", "\"quoted\"", "'single'", "M & M"] {
                #expect(!html.contains(raw), "\(name) prints \(raw) unescaped")
            }
            // The structure is whole: every element that opens closes, every row has a cell per column.
            for tag in ["table", "tr", "td", "section", "svg", "h1", "form"] {
                #expect(
                    Self.count("<\(tag)[ >]", in: html) == Self.count("</\(tag)>", in: html),
                    "\(name): <\(tag)> opens \(Self.count("<\(tag)[ >]", in: html)) times, closes \(Self.count("</\(tag)>", in: html))"
                )
            }
            for (table, parsed) in ParsedPage(html: html).tables {
                #expect(parsed.rows.allSatisfy { $0.count == parsed.headers.count }, "\(name) \(table)")
            }
        }
        // The search table holds the hostile names, escaped, in cells that wrap and isolate their direction.
        let table = try #require(ParsedPage(html: search.html).tables["products"])
        for product in ReportFixture.hostileProducts {
            #expect(table.rows.contains { $0[safe: 1] == product.name.htmlEscaped }, "\(product.gtin) not listed")
        }
        #expect(search.html.contains("overflow-wrap:anywhere") && search.html.contains("unicode-bidi:isolate"))
    }

    @Test func aTenKilobyteValueFromADatasheetIsEscapedAndWrapped() async throws {
        let fixture = try await ReportFixture()
        let long = "<script>" + String(repeating: "\u{202E}Pitkä nimi \"x\" ", count: 700) + "</script>"
        #expect(long.utf8.count > 10_000)
        // A report as `check --format json` writes it (its Codable form).
        let finding: [String: Any] = [
            "rule": "EU1169-NAME-<1>", "attribute": "productName@fi", "verdict": 3, "severity": "failure",
            "message": long, "observed": long, "expected": "a name", "reference": "EU 1169/2011 Art. 9(1)(a)",
        ]
        let json: [String: Any] = [
            "gtin": "06414890000011", "source": "<upload>.jsonl:1", "verdict": 3, "findings": [finding],
            "passedRules": 3, "notApplicableRules": 0, "unableRules": 0, "attributeVerdicts": [String: Int](),
        ]
        let report = try JSONDecoder().decode(
            DatasheetReport.self, from: try JSONSerialization.data(withJSONObject: json))
        let page = fixture.pages().renderRuleChecks(
            RuleCheckInput(source: "<upload>.jsonl", reports: [report], unreadable: ["line 2: <bad>"]),
            viewer: ReportFixture.manager)
        #expect(page.status == 200)
        #expect(!page.html.contains("<script>") && !page.html.contains("<upload>") && !page.html.contains("<bad>"))
        let parsed = ParsedPage(html: page.html)
        let findings = try #require(parsed.tables["findings"])
        #expect(findings.cell(row: ["06414890000011"], column: "observed") == long.htmlEscaped)
        #expect(
            parsed.marks("chart-rules") == [
                .init(series: "failures", label: "EU1169-NAME-&lt;1&gt;", panel: nil, value: 1),
                .init(series: "warnings", label: "EU1169-NAME-&lt;1&gt;", panel: nil, value: 0),
            ])
        #expect(page.html.contains("th,td{") && page.html.contains("overflow-wrap:anywhere"))
        // On the server the CSV travels in the link itself: the upload is not kept.
        #expect(page.html.contains("href=\"data:text/csv;charset=utf-8,rule%2Ctitle"))
    }

    /// `pattern` (a regular expression) occurrences in `text`.
    static func count(_ pattern: String, in text: String) -> Int { matches(pattern, in: text).count }

    @Test func chartLabelsAreEscapedAndClippedWithTheWholeTextInTheirTitle() async throws {
        let fixture = try await ReportFixture()
        // A category named by a supplier is a chart label on the categories page.
        let page = try await fixture.pages().render(.categories, parameters: [:], viewer: ReportFixture.manager)
        let svg = try #require(ParsedPage(html: page.html).chart("chart-categories"))
        #expect(!svg.contains("<Yoghurt>"))
        for label in matches(#"<text class="label"[^>]*>([^<]*)<title>"#, in: svg).map({ $0[1] }) {
            #expect(label.count <= 40, "a chart label is not clipped: \(label.prefix(60))")
        }
    }

    @Test func everyPageHasALanguageATitleLabelledFieldsAndChartsWithTextAndTables() async throws {
        let fixture = try await ReportFixture()
        let pages = fixture.pages()
        var documents = [
            pages.renderLogin(
                error: "Wrong <password>", csrfToken: "\"><script>x</script>", next: "/pages/coverage?a=1&b=2"
            ).html
        ]
        for page in PageName.allCases {
            for parameters in try PagesRenderTests.parameters(page, fixture) {
                documents.append(
                    try await pages.render(page, parameters: parameters, viewer: ReportFixture.manager).html)
            }
        }
        for html in documents {
            let title = matches("<title>(.*?)</title>", in: html).first?[1] ?? ""
            #expect(html.contains("<html lang=\"en\">") && !title.isEmpty)
            // Every visible field has a label naming its id.
            for field in matches(#"<(?:input|select)(?![^>]*type="hidden")[^>]*\bid="([^"]+)""#, in: html) {
                #expect(html.contains("<label for=\"\(field[1])\">"), "\(title): field \(field[1]) has no label")
            }
            #expect(
                Self.count(#"<(?:input|select)(?![^>]*type="hidden")"#, in: html)
                    == Self.count(#"<label for="#, in: html), "\(title)")
            let parsed = ParsedPage(html: html)
            for id in parsed.chartIDs {
                let svg = try #require(parsed.chart(id))
                #expect(svg.contains("role=\"img\"") && svg.contains("aria-labelledby=\"\(id)-title \(id)-desc\""))
                #expect(svg.contains("<desc id=\"\(id)-desc\">"), "\(title): \(id) has no description")
                #expect(parsed.tables[String(id.dropFirst(6))] != nil, "\(title): \(id) has no table")
            }
        }
        // The login form: escaped token and next, a hidden CSRF field, the error said.
        let login = documents[0]
        #expect(!login.contains("<script>x") && login.contains("value=\"&quot;&gt;&lt;script&gt;x&lt;/script&gt;\""))
        #expect(login.contains("name=\"csrf\"") && login.contains("Wrong &lt;password&gt;"))
        #expect(login.contains("name=\"next\" value=\"/pages/coverage?a=1&amp;b=2\""))
        #expect(login.contains("<input id=\"username\" name=\"username\"") && login.contains("type=\"password\""))
    }

    @Test func pagesOfASessionPostTheirFormsWithTheCSRFTokenAndStaticPagesHaveNoForms() async throws {
        let fixture = try await ReportFixture()
        let server = try await fixture.pages().render(.coverage, parameters: [:], viewer: ReportFixture.manager)
        #expect(server.html.contains("action=\"/pages/logout\"") && server.html.contains("value=\"csrf-token-1\""))
        #expect(server.html.contains("<form class=\"filters\" method=\"get\" action=\"/pages/coverage\""))
        let file = try await fixture.pages(.staticFiles).render(.coverage, parameters: [:], viewer: .report)
        #expect(!file.html.contains("<form"))
        #expect(file.html.contains("href=\"coverage-coverage-type.csv\""))
        #expect(server.html.contains("href=\"/pages/coverage?format=csv&amp;table=coverage-type\""))
    }

    @Test func csvQuotesFieldsAndDefusesFormulas() async throws {
        let fixture = try await ReportFixture()
        let csv = try await fixture.pages().renderCSV(
            .search, table: "products", parameters: ["q": "jogurtti"], viewer: ReportFixture.manager)
        #expect(csv.contains("\"\"\"quoted\"\" & 'single' <b>bold</b> jogurtti\""))
        #expect(csv.hasPrefix("gtin,name,brand,manufacturer,productTypeLabel,category,attributes\r\n"))
        let checks = RuleCheckInput(source: "x.csv", reports: [])
        #expect(try fixture.pages().renderRuleChecksCSV(checks, table: "rules").hasPrefix("rule,title,reference"))
    }
}
