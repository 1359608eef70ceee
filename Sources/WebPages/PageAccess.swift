/// Which roles may open which page: the API's permission table, page by page. An inspector
/// opens only their own batches and analytics (the pages filter on ``PageViewer/userID``).
enum PageAccess {
    static let readers: Set<String> = ["manager", "auditor", "admin"]

    /// The roles allowed on `page`.
    static func roles(for page: PageName) -> Set<String> {
        switch page {
        case .dashboard, .product, .search, .categories:
            ["inspector", "receiver", "manager", "steward", "auditor", "admin"]
        case .coverage, .history: readers
        case .inspectors, .batch: readers.union(["inspector"])
        case .rules: readers.union(["steward"])
        }
    }

    /// Throws a 403 naming the role when `viewer` may not open `page`.
    static func check(_ page: PageName, _ viewer: PageViewer) throws {
        if let denial = denial(page, viewer) { throw denial }
    }

    /// The 403 for `viewer` on `page`, nil when they may open it.
    static func denial(_ page: PageName, _ viewer: PageViewer) -> ReportError? {
        guard !roles(for: page).contains(viewer.role) else { return nil }
        return ReportError.forbidden(
            "the \(page.title.lowercased()) page is for " + roles(for: page).sorted().joined(separator: ", ")
                + "; you are logged in as \(viewer.role) (ask an administrator for access)")
    }

    /// Whether `viewer` may see `page` at all (for links and dashboard sections).
    static func allows(_ page: PageName, _ viewer: PageViewer) -> Bool { roles(for: page).contains(viewer.role) }
}
