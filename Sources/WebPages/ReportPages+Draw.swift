import AuditService

extension ReportPages {
    /// `page` drawn for `viewer` (errors thrown, for ``render(_:parameters:viewer:)`` to turn into pages).
    func draw(_ page: PageName, parameters: [String: String], viewer: PageViewer) async throws -> RenderedPage {
        document(try await content(page, parameters: parameters, viewer: viewer), page: page, viewer: viewer)
    }

    /// What `page` shows for `parameters` and `viewer`.
    func content(_ page: PageName, parameters: [String: String], viewer: PageViewer) async throws -> PageContent {
        try PageAccess.check(page, viewer)
        let request = PageRequest(parameters, now: now())
        if page == .rules {
            // Findings come from an upload (renderRuleChecks) or the static report, never a path in a URL.
            var content = RuleChecksPage(checks: nil, links: links, viewer: viewer).content()
            content.footer = try PageScope(pages: self, request: request, viewer: viewer).footer(now: now())
            return content
        }
        let scope = try PageScope(pages: self, request: request, viewer: viewer)
        switch page {
        case .dashboard: return try DashboardPage(scope: scope).content()
        case .coverage: return try CoveragePage(scope: scope).content()
        case .inspectors: return try InspectorsPage(scope: scope).content()
        case .product: return try await ProductPage(scope: scope).content()
        case .batch: return try await BatchPage(scope: scope).content()
        case .history: return try await HistoryPage(scope: scope).content()
        case .search: return try ProductSearchPage(scope: scope).content()
        case .categories: return try CategoriesPage(scope: scope).content()
        case .rules: return RuleChecksPage(checks: nil, links: links, viewer: viewer).content()
        case .receptions: return try ReceptionsPage(scope: scope).content()
        }
    }

    /// The rule-check page's content for `checks`, with links to the products the viewer may open.
    func ruleChecksContent(_ checks: RuleCheckInput, viewer: PageViewer) -> PageContent {
        let scope = try? PageScope(pages: self, request: PageRequest([:], now: now()), viewer: viewer)
        var page = RuleChecksPage(checks: checks, links: links, viewer: viewer)
        page.productLink = { gtin in scope?.link(.product, ["gtin": gtin]) }
        var content = page.content()
        content.footer = scope?.footer(now: now()) ?? ""
        return content
    }

    /// The time pages count "now" from.
    func now() -> Timestamp { clock() }
}
