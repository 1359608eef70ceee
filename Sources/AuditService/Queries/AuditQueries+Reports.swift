import Projections

extension AuditQueries {
    /// Coverage per group over `[from, to)` (microseconds since the epoch; open when nil).
    public func coverage(from: Int64? = nil, to: Int64? = nil, by grouping: CoverageGrouping) throws -> [CoverageRow] {
        try projections().coverage(from: from, to: to, by: grouping)
    }

    /// Inspector analytics per inspector over `[from, to)` (microseconds since the epoch; open when nil).
    public func inspectors(from: Int64? = nil, to: Int64? = nil) throws -> [InspectorSummary] {
        try projections().inspectorAnalytics(from: from, to: to)
    }

    /// A batch and its tasks, or nil when the log has no such batch.
    public func batch(_ id: String) throws -> BatchReport? {
        try projections().batch(id)
    }

    /// A product's quality history, or nil when the log never mentioned it.
    public func product(gtin: String) throws -> ProductQuality? {
        try projections().productQuality(gtin: gtin)
    }

    /// One page of the products matching `filter`.
    public func search(_ filter: ProductFilter, limit: Int = 20, offset: Int = 0) throws -> SearchPage {
        try projections().search(filter, limit: limit, offset: offset)
    }

    /// The category tree of the products matching `filter`, with counts.
    public func categories(_ filter: ProductFilter = ProductFilter()) throws -> [CategoryNode] {
        try projections().categoryTree(filter)
    }
}
