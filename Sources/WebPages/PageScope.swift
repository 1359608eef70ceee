import AuditService

/// What a page builder works with: the queries (as of the request's point), the links, the
/// request's parameters and the viewer.
struct PageScope {
    let pages: ReportPages
    let request: PageRequest
    let viewer: PageViewer
    /// The queries, as of the request's `as-of` when given.
    let queries: AuditQueries
    /// The log position the page is as of, when it is not the end.
    let asOf: UInt64?
    /// The end of the log as the page is drawn.
    let head: LogHead

    init(pages: ReportPages, request: PageRequest, viewer: PageViewer) throws {
        self.pages = pages
        self.request = request
        self.viewer = viewer
        (queries, asOf) = try request.queries(pages.queries)
        head = pages.queries.logHead()
    }

    var links: PageLinks { pages.links }

    /// The address of `page` with `parameters`, or nil when the viewer may not open it or a
    /// static report does not hold it (the text is then printed without a link).
    func link(_ page: PageName, _ parameters: [String: String] = [:]) -> String? {
        guard PageAccess.allows(page, viewer) else { return nil }
        if links.isStatic, let holds = pages.staticPages, !holds(PageLinks.fileName(page, parameters)) { return nil }
        return links.page(page, parameters)
    }

    /// The request's parameters that a page passes on to its links (`from`, `to`, `as-of`).
    var carried: [String: String] {
        request.parameters.filter { ["from", "to", "as-of"].contains($0.key) }
    }

    /// The footer: when and from which point of the log the page was drawn.
    func footer(now: Timestamp) -> String {
        var text = "Drawn \(now.iso8601) from log position \(head.position), head hash \(head.headHash)"
        if let asOf { text += "; as of position \(asOf)" }
        return text + "."
    }
}
