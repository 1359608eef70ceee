/// The pages WebPages draws; the raw value is the page's path segment and file name.
///
/// Named here, beside the queries that serve them, so that the permission table says who opens each.
public enum PageName: String, CaseIterable, Sendable {
    /// Coverage %, inspections this period, open batches by status, overdue samples, failures by
    /// attribute group, the log's head hash.
    case dashboard
    /// Coverage by product type, mode, location and inspector over a period.
    case coverage
    /// Per inspector and day: collected, skipped by reason, passed, failed, minutes per task.
    case inspectors
    /// One product's quality history (`gtin=`).
    case product
    /// One batch's tasks (`batch=`), or the batch list without it.
    case batch
    /// The auditor's timeline of a GTIN, batch, task or inspector, as of a point.
    case history
    /// Product search (`q=`, `type=`, `manufacturer=`).
    case search
    /// The category tree with counts.
    case categories
    /// A datasheet file's rule findings, grouped by rule and by product (`file=` in a static
    /// report; the server passes uploaded findings to ``ReportPages/renderRuleChecks(_:viewer:)``).
    case rules
    /// The receiver's receptions, and with `reception=` one reception's acknowledgement for the
    /// manufacturer (printable; the same words as its e-mail).
    case receptions

    /// The page's title for people.
    public var title: String {
        switch self {
        case .dashboard: "Dashboard"
        case .coverage: "Coverage"
        case .inspectors: "Inspectors"
        case .product: "Product"
        case .batch: "Batches"
        case .history: "History"
        case .search: "Search"
        case .categories: "Categories"
        case .rules: "Rule checks"
        case .receptions: "Receptions"
        }
    }

    /// Where the page is listed: the navigation bars and the top of a static report take it from here.
    public var listing: Listing {
        switch self {
        case .dashboard, .coverage, .inspectors, .batch, .search, .categories, .rules: .everywhere
        case .history: .serverOnly
        case .product: .linkedOnly
        case .receptions: .linkedOnly
        }
    }

    /// Where a page is listed.
    public enum Listing: Sendable {
        /// In every navigation bar, and at the top of a static report.
        case everywhere
        /// In the server's navigation bar only: a static report cannot answer its questions.
        case serverOnly
        /// In no navigation bar: reached by a link that names its subject.
        case linkedOnly
    }
}
