import GRDB

/// How coverage is grouped.
public enum CoverageGrouping: String, Sendable, CaseIterable, Codable {
    /// By product type (base unit, case, pallet).
    case type
    /// By inspection mode.
    case mode
    /// By inspector.
    case inspector
    /// By location (the catalogue is what the location lists or received).
    case location
    /// By UTC day, ISO week (from Monday) or month of the inspections' finish: the progress over
    /// time, each row with its change from the one before.
    case day, week, month

    /// The period unit of a time grouping, nil for the others.
    var period: PeriodUnit? { PeriodUnit(rawValue: rawValue) }
}

/// A period reports break down by.
public enum PeriodUnit: String, Sendable, CaseIterable, Codable {
    case day, week, month

    /// SQL for the period's name (`2026-01-05`, the week's Monday `2026-01-05`, `2026-01`) of the
    /// Unix time in seconds `seconds` (an SQL expression).
    func sql(seconds: String) -> String {
        switch self {
        case .day: "strftime('%Y-%m-%d', \(seconds), 'unixepoch')"
        case .week: "date(\(seconds), 'unixepoch', '-6 days', 'weekday 1')"
        case .month: "strftime('%Y-%m', \(seconds), 'unixepoch')"
        }
    }
}

/// Coverage of one group over a period.
public struct CoverageRow: Sendable, Hashable, Codable {
    /// The group's key: product type, mode or location raw value, or inspector id.
    public var group: String
    /// The group for people: the product type's or mode's name ("base unit", "wholesale"), else
    /// the key itself.
    public var groupLabel: String
    /// Products in the catalogue of this group registered by the end of the period.
    public var catalogue: Int
    /// Distinct products inspected (finished) in the period; for a location, those of its
    /// catalogue inspected there.
    public var inspected: Int
    /// `inspected / catalogue` in percent (0 for an empty catalogue).
    public var percent: Double
    /// Finished inspections in the period.
    public var inspections: Int
    /// Catalogue products never inspected by the end of the period (type and location groupings).
    public var neverInspected: Int?
    /// Received products past their inspect-before date and not inspected since reception by the
    /// end of the period (type and location groupings).
    public var overdue: Int?
    /// Time groupings: inspections minus those of the period before (nil for the first period).
    public var change: Int?

    public init(
        group: String, grouping: CoverageGrouping, catalogue: Int, inspected: Int, percent: Double, inspections: Int,
        neverInspected: Int?, overdue: Int?, change: Int? = nil
    ) {
        self.change = change
        self.group = group
        groupLabel =
            switch (grouping, Int(group)) {
            case (.type, let code?): ReportLabels.productType(code)
            case (.mode, let code?): ReportLabels.mode(code)
            default: group
            }
        self.catalogue = catalogue
        self.inspected = inspected
        self.percent = percent
        self.inspections = inspections
        self.neverInspected = neverInspected
        self.overdue = overdue
    }
}

extension ProjectionStore {
    /// Coverage from `from` (inclusive) to `to` (exclusive), µs since the epoch (open ends when nil).
    public func coverage(from: Int64? = nil, to: Int64? = nil, by grouping: CoverageGrouping) throws -> [CoverageRow] {
        let from = from ?? Int64.min
        let to = to ?? Int64.max
        return try database.read { db in
            guard try db.tableExists("quality_inspection"), try db.tableExists("coverage_product") else { return [] }
            let period = "finished_at >= \(from) AND finished_at < \(to)"
            // The finished inspections (the quality projection's), with the product's type.
            let inspections = """
                SELECT q.gtin, coalesce(p.product_type, -1) AS product_type, q.mode, q.location, q.inspector,
                  q.occurred_at AS finished_at
                FROM quality_inspection q LEFT JOIN coverage_product p ON p.gtin = q.gtin
                """
            // Per product: the last inspection before the end of the period.
            let lastInspection = """
                SELECT gtin, max(finished_at) AS last FROM inspection WHERE finished_at < \(to) GROUP BY gtin
                """
            let catalogue = "SELECT * FROM coverage_product WHERE registered_at < \(to)"
            let overdueCondition = """
                c.inspect_before IS NOT NULL AND c.inspect_before < \(min(to, Int64.max - 1))
                  AND (l.last IS NULL OR l.last < c.received_at)
                """
            let sql: String
            switch grouping {
            case .type:
                sql = """
                    WITH inspection AS (\(inspections)), cat AS (\(catalogue)), last AS (\(lastInspection)),
                      done AS (SELECT product_type AS g, count(DISTINCT gtin) AS n, count(*) AS k
                               FROM inspection WHERE \(period) GROUP BY product_type)
                    SELECT CAST(c.product_type AS TEXT) AS g, count(*) AS catalogue,
                      coalesce((SELECT n FROM done WHERE done.g = c.product_type), 0),
                      coalesce((SELECT k FROM done WHERE done.g = c.product_type), 0),
                      sum(l.last IS NULL), sum(\(overdueCondition))
                    FROM cat c LEFT JOIN last l ON l.gtin = c.gtin GROUP BY c.product_type ORDER BY c.product_type
                    """
            case .location:
                sql = """
                    WITH inspection AS (\(inspections)), cat AS (\(catalogue)), last AS (\(lastInspection)),
                      done AS (SELECT i.location AS g, count(DISTINCT i.gtin) AS n, count(*) AS k
                               FROM inspection i
                               JOIN coverage_listing s ON s.gtin = i.gtin AND s.location = i.location
                               WHERE \(period) GROUP BY i.location)
                    SELECT s.location AS g, count(*) AS catalogue,
                      coalesce((SELECT n FROM done WHERE done.g = s.location), 0),
                      coalesce((SELECT k FROM done WHERE done.g = s.location), 0),
                      sum(l.last IS NULL), sum(\(overdueCondition))
                    FROM coverage_listing s JOIN cat c ON c.gtin = s.gtin LEFT JOIN last l ON l.gtin = c.gtin
                    GROUP BY s.location ORDER BY s.location
                    """
            case .mode, .inspector, .day, .week, .month:
                let column =
                    grouping.period?.sql(seconds: "finished_at / 1000000") ?? (grouping == .mode ? "mode" : "inspector")
                sql = """
                    WITH inspection AS (\(inspections))
                    SELECT CAST(\(column) AS TEXT) AS g, (\("SELECT count(*) FROM (\(catalogue))")) AS catalogue,
                      count(DISTINCT gtin), count(*), NULL, NULL
                    FROM inspection WHERE \(period) GROUP BY \(column) ORDER BY \(column)
                    """
            }
            var previous: Int?
            return try Row.fetchAll(db, sql: sql).map { row in
                let catalogue: Int = row[1]
                let inspected: Int = row[2]
                let result = CoverageRow(
                    group: row[0], grouping: grouping, catalogue: catalogue, inspected: inspected,
                    percent: catalogue > 0 ? (Double(inspected) * 1000 / Double(catalogue)).rounded() / 10 : 0,
                    inspections: row[3], neverInspected: row[4], overdue: row[5],
                    change: grouping.period == nil ? nil : previous.map { row[3] - $0 })
                defer { previous = row[3] }
                return result
            }
        }
    }
}
