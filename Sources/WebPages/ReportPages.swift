import AuditService
import Foundation

/// Draws the web pages — dashboard, coverage, inspectors, product, batch, history, search,
/// categories, rule checks, login — as whole HTML documents with their stylesheet and SVG charts
/// inline: nothing is fetched from elsewhere, so a page works offline and saved to disk.
///
/// Every page reads its filters from `parameters` (the URL's query: the same names as the CLI's
/// options, so a page can be bookmarked), asks ``AuditQueries`` and prints every value escaped.
/// Each chart has a text alternative and a table with the same numbers under it, and each table
/// a CSV link (``renderCSV(_:table:parameters:viewer:)`` draws it).
///
/// The queries read SQLite synchronously: a server calls `render` off its event loop.
public struct ReportPages: Sendable {
    /// The queries every page reads.
    public let queries: AuditQueries
    /// How links are written.
    public let links: PageLinks
    /// The time "now" is for the pages (the end of an open period, days overdue).
    let clock: @Sendable () -> Timestamp
    /// In a static report: whether a page file (name without `.html`) is written, so that links
    /// to pages it does not hold are left out; nil links every page.
    var staticPages: (@Sendable (String) -> Bool)?
    /// The last verification of the log, shown on the dashboard (see ``withVerification(_:at:)``).
    var verification: (report: VerificationReport, at: Timestamp)?
    /// A product's current datasheet, grouped as an inspector's task shows it, for the product
    /// page (see ``withDatasheets(_:)``); nil leaves the values out (a static report).
    var datasheets: (@Sendable (String) async -> ProductDatasheet?)?

    /// Pages over `queries`, with links written as `links` says; `now` is the clock (inject a
    /// fixed one for deterministic pages).
    public init(
        queries: AuditQueries, links: PageLinks, now: (@Sendable () -> Timestamp)? = nil
    ) {
        self.queries = queries
        self.links = links
        self.clock = now ?? { Timestamp(Date()) }
    }

    /// Parses the embedded templates now, so the first page a server draws does not pay for it.
    /// - Throws: ``ReportError`` when a template does not parse (a defect the tests catch).
    public static func prepare() throws {
        _ = try Templates.library.get()
    }

    /// These pages showing `report`, made at `time`, as the log's last verification on the dashboard.
    public func withVerification(_ report: VerificationReport, at time: Timestamp) -> ReportPages {
        var copy = self
        copy.verification = (report, time)
        return copy
    }

    /// These pages showing a product's current datasheet values on its page, as `lookup` gives
    /// them for a GTIN (the server's ``AuditService/productDatasheet(gtin:language:)``).
    public func withDatasheets(_ lookup: @escaping @Sendable (String) async -> ProductDatasheet?) -> ReportPages {
        var copy = self
        copy.datasheets = lookup
        return copy
    }

    /// Draws `page` with the filters in `parameters` for `viewer`.
    ///
    /// A bad parameter, another inspector's work or an unknown subject is a page too, with status
    /// 400, 403 or 404 and a message saying what to fix.
    /// - Throws: ``ReportError`` (status 500) when the data cannot be read.
    public func render(_ page: PageName, parameters: [String: String], viewer: PageViewer) async throws
        -> RenderedPage
    {
        do {
            return try await draw(page, parameters: parameters, viewer: viewer)
        } catch let error as ReportError where error.status < 500 {
            return errorPage(error, page: page, viewer: viewer)
        }
    }

    /// The CSV of one table of `page` (`table` as the page's CSV links name it), with the same
    /// filters: a header of the column names, then one row per table row; RFC 4180 quoting.
    /// - Throws: ``ReportError`` 400 for a bad parameter or an unknown table, 403, 404, 500.
    public func renderCSV(_ page: PageName, table: String, parameters: [String: String], viewer: PageViewer)
        async throws -> String
    {
        let content = try await content(page, parameters: parameters, viewer: viewer)
        guard let found = content.tables.first(where: { $0.name == table }) else {
            let names = content.tables.map(\.name).joined(separator: ", ")
            throw ReportError(
                code: "unknown-table", message: "page \(page.rawValue) has no table '\(table)' (use one of: \(names))",
                status: 400)
        }
        return found.csv()
    }

    /// The login form: username, password, a hidden CSRF field and the page to go to after (`next`),
    /// posted to `basePath/login`; `error` is shown above it (a failed login).
    public func renderLogin(error: String?, csrfToken: String, next: String?) -> RenderedPage {
        LoginPage(error: error, csrfToken: csrfToken, next: next, links: links).rendered()
    }

    /// The rule-check page for findings already made (an upload the server checked with
    /// ``RuleCheckInput/check(file:displayName:rules:)``).
    ///
    /// On the server its CSV links are `data:` addresses holding the CSV itself (the upload is
    /// not kept, so there is nothing to fetch later).
    public func renderRuleChecks(_ checks: RuleCheckInput, viewer: PageViewer) -> RenderedPage {
        if let denial = PageAccess.denial(.rules, viewer) { return errorPage(denial, page: .rules, viewer: viewer) }
        var content = ruleChecksContent(checks, viewer: viewer)
        if !links.isStatic {
            for index in content.sections.indices {
                guard var table = content.sections[index].table else { continue }
                table.csvLink = "data:text/csv;charset=utf-8," + PageLinks.encode(table.csv())
                content.sections[index].table = table
            }
        }
        return document(content, page: .rules, viewer: viewer)
    }

    /// The CSV of one table of the rule-check page for `checks`.
    /// - Throws: ``ReportError`` 400 for an unknown table.
    public func renderRuleChecksCSV(_ checks: RuleCheckInput, table: String) throws -> String {
        let content = ruleChecksContent(checks, viewer: .report)
        guard let found = content.tables.first(where: { $0.name == table }) else {
            throw ReportError(
                code: "unknown-table", message: "the rule-check page has no table '\(table)'", status: 400)
        }
        return found.csv()
    }
}
