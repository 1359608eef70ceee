import AuditLog
import Chronology
import Foundation
import Projections

extension AuditQueries {
    /// Coverage per group over `[from, to)`: from the start of the log when `from` is nil, up to
    /// `now` when `to` is nil.
    ///
    /// Every caller that means "everything so far" passes no `to`, so the demo, the CLI and the
    /// server count the same inspections and the same overdue products.
    public func coverage(
        from: Timestamp? = nil, to: Timestamp? = nil, by grouping: CoverageGrouping, now: Timestamp = Timestamp(Date())
    ) throws -> [CoverageRow] {
        try coverage(from: from, to: to, by: [grouping], now: now)[0]
    }

    /// Coverage by each of `groupings` (in that order) over `[from, to)`, as
    /// ``coverage(from:to:by:now:)`` counts it, read at one point of the log: a page with several
    /// groupings shows tables that agree, and the type and location groupings share their pass.
    public func coverage(
        from: Timestamp? = nil, to: Timestamp? = nil, by groupings: [CoverageGrouping],
        now: Timestamp = Timestamp(Date())
    ) throws -> [[CoverageRow]] {
        let end = try to ?? reportTime(now)
        return try withProjections { try $0.coverage(from: from, to: end, by: groupings) }
    }

    /// Inspector analytics per inspector over `[from, to)` (open when nil), or per inspector and
    /// day, week or month with `per`.
    public func inspectors(from: Timestamp? = nil, to: Timestamp? = nil, per: PeriodUnit? = nil) throws
        -> [InspectorSummary]
    {
        try withProjections { try $0.inspectorAnalytics(from: from, to: to, per: per) }
    }

    /// A batch and its tasks, or nil when the log has no such batch.
    public func batch(_ id: String) throws -> BatchReport? {
        try withProjections { try $0.batch(id) }
    }

    /// The batches matching `filter`, in allocation order.
    public func batches(_ filter: BatchFilter = BatchFilter()) throws -> [BatchSummary] {
        try withProjections { try $0.batches(filter) }
    }

    /// Received samples past their inspect-before date at `now` and not inspected since they were
    /// received: the products `coverage` counts as overdue, most overdue first.
    public func overdueSamples(now: Timestamp = Timestamp(Date())) throws -> [OverdueSample] {
        let end = try reportTime(now)
        return try withProjections { try $0.overdueSamples(at: end) }
    }

    /// A product's quality history, or nil when the log never mentioned it.
    public func product(gtin: String) throws -> ProductQuality? {
        try withProjections { try $0.productQuality(gtin: gtin) }
    }

    /// The packaging hierarchy around a product: what it contains and every product that contains
    /// it, or nil when no registration named it.
    public func packagingHierarchy(gtin: String) throws -> PackagingHierarchy? {
        try withProjections { try $0.packagingHierarchy(gtin: gtin) }
    }

    /// One page of the products matching `filter`.
    public func search(_ filter: ProductFilter, limit: Int = 20, offset: Int = 0) throws -> SearchPage {
        try withProjections { try $0.search(filter, limit: limit, offset: offset) }
    }

    /// The category tree of the products matching `filter`, with counts.
    public func categories(_ filter: ProductFilter = ProductFilter()) throws -> [CategoryNode] {
        try withProjections { try $0.categoryTree(filter) }
    }
}
