import AuditServer
import AuditService
import Foundation
import HummingbirdTesting
import Testing

/// The rules page's second button: every finding of the uploaded file as a CSV download, for a
/// browser without scripts (the page itself lists the first findings only).
@Suite("Web findings CSV")
struct WebFindingsCSVTests {
    @Test("a steward's page offers the CSV; the download has every finding, one row each, formulas guarded")
    func downloadHasEveryFinding() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var steward = WebBrowser(client)
            try await steward.loggedIn("steward")
            let page = String(buffer: try await steward.get("/rules").body)
            #expect(page.contains(#"name="format" value="csv""#), "the form's CSV button")
            // A GTIN a spreadsheet would run as a formula (the supplier's data is not trusted).
            let formula = DatasheetRoutesTests.badGTIN.replacingOccurrences(
                of: "\"6412345100072\"", with: "\"=HYPERLINK(1)\"")
            let content = DatasheetCheckBoundsTests.body(1500) + formula + "\n"
            let token = try WebBrowser.csrfToken(in: try await steward.get("/search"))
            let form = WebBrowser.multipart(
                fields: [("csrf", token), ("format", "csv")],
                file: (name: "datasheets", filename: "supplier.jsonl", content: content))
            let csv = try await steward.send(.post, "/rules", body: form.body, contentType: form.contentType)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.headers[.contentDisposition]?.contains("findings-supplier-jsonl.csv") == true)
            var total = 0
            _ = try DatasheetUpload.scan(
                Array(content.utf8), format: .jsonl, engine: try RuleBook.engine(selection: [])
            ) {
                _, report in
                total += report.findings.count
                return true
            }
            let lines = String(buffer: csv.body).split(separator: "\r\n")
            #expect(
                lines.first == "gtin,datasheetID,source,rule,severity,attribute,observed,expected,message,reference")
            #expect(total > 1000, "more findings than the page lists")
            #expect(lines.count == total + 1, "a header and one row per finding")
            #expect(lines.contains { $0.hasPrefix("'=HYPERLINK(1),") }, "a formula is guarded")
            #expect(!lines.contains { $0.hasPrefix("=") })
        }
    }

    @Test("a file with an unreadable record is a page naming its line, not a partial CSV")
    func unreadableRecordIsRefused() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var steward = WebBrowser(client)
            try await steward.loggedIn("steward")
            let token = try WebBrowser.csrfToken(in: try await steward.get("/search"))
            let form = WebBrowser.multipart(
                fields: [("csrf", token), ("format", "csv")],
                file: (name: "datasheets", filename: "d.jsonl", content: DatasheetRoutesTests.good + "\n{not json\n"))
            let refused = try await steward.send(.post, "/rules", body: form.body, contentType: form.contentType)
            #expect(refused.status == .badRequest)
            #expect(refused.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(String(buffer: refused.body).contains("line 2"))
        }
    }
}
