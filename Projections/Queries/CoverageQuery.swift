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
    ///
    /// Aggregated in SQL over the coverage projection's indexes (see ``CoverageProjection``): each
    /// product's inspections are read once from `(gtin, occurred_at)`, a grouping's distinct
    /// products stream from `(group, gtin, occurred_at)`, and only received products are checked
    /// for being overdue. Each query's answer equals the plain definition in `CoverageRow`'s
    /// fields (a test compares them on generated histories).
    public func coverage(from: Int64? = nil, to: Int64? = nil, by grouping: CoverageGrouping) throws -> [CoverageRow] {
        let from = from ?? Int64.min
        let to = to ?? Int64.max
        return try database.read { db in
            guard try db.tableExists("quality_inspection"), try db.tableExists("coverage_product") else { return [] }
            let arguments: StatementArguments = ["from": from, "to": to, "due": min(to, Int64.max - 1)]
            let sql: String
            switch grouping {
            case .type: sql = Self.coverageByTypeSQL
            case .location: sql = Self.coverageByLocationSQL
            case .mode, .inspector, .day, .week, .month:
                let column =
                    grouping.period?.sql(seconds: "occurred_at / 1000000") ?? (grouping == .mode ? "mode" : "inspector")
                sql = """
                    SELECT CAST(\(column) AS TEXT) AS g,
                      (SELECT count(*) FROM coverage_product WHERE registered_at < :to) AS catalogue,
                      count(DISTINCT gtin), count(*), NULL, NULL
                    FROM quality_inspection WHERE occurred_at >= :from AND occurred_at < :to
                    GROUP BY \(column) ORDER BY \(column)
                    """
            }
            var previous: Int?
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
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

    /// Received products still due at `:due` and not inspected since their reception (before
    /// `:to`): the overdue ones, with `c` the catalogue row.
    private static let overdueCondition = """
        c.inspect_before IS NOT NULL AND c.inspect_before < :due AND c.registered_at < :to
          AND NOT EXISTS (SELECT 1 FROM quality_inspection q WHERE q.gtin = c.gtin
                          AND q.occurred_at >= coalesce(c.received_at, -9223372036854775808) AND q.occurred_at < :to)
        """

    /// Per product type: the catalogue registered before `:to`; the products (of any registration
    /// time) inspected in the period and their inspections; the catalogue products never
    /// inspected before `:to`; the overdue ones.
    private static let coverageByTypeSQL = """
        WITH per AS (SELECT gtin, sum(occurred_at >= :from) AS k FROM quality_inspection
                     WHERE occurred_at < :to GROUP BY gtin),
          seen AS (SELECT p.product_type AS g, sum(per.k > 0) AS n, sum(per.k) AS k,
                     sum(p.registered_at < :to) AS before
                   FROM per JOIN coverage_product p ON p.gtin = per.gtin GROUP BY p.product_type),
          cat AS (SELECT product_type AS g, count(*) AS n FROM coverage_product WHERE registered_at < :to
                  GROUP BY product_type),
          due AS (SELECT c.product_type AS g, count(*) AS n FROM coverage_product c
                  WHERE \(overdueCondition) GROUP BY c.product_type)
        SELECT CAST(cat.g AS TEXT), cat.n, coalesce(seen.n, 0), coalesce(seen.k, 0),
          cat.n - coalesce(seen.before, 0), coalesce(due.n, 0)
        FROM cat LEFT JOIN seen ON seen.g = cat.g LEFT JOIN due ON due.g = cat.g ORDER BY cat.g
        """

    /// Per location (every listing is of a registered product: receiving needs a registration):
    /// its listings of products registered before `:to`; the listed products
    /// inspected there in the period and those inspections; the listed products never inspected
    /// (anywhere) before `:to`; the overdue ones.
    private static let coverageByLocationSQL = """
        WITH listed AS (SELECT location AS g, count(*) AS n FROM coverage_listing GROUP BY location),
          late AS (SELECT s.location AS g, count(*) AS n FROM coverage_product c
                   CROSS JOIN coverage_listing s ON s.gtin = c.gtin WHERE c.registered_at >= :to GROUP BY s.location),
          per AS (SELECT gtin FROM quality_inspection WHERE occurred_at < :to GROUP BY gtin),
          seen AS (SELECT s.location AS g, count(*) AS n FROM per JOIN coverage_product c ON c.gtin = per.gtin
                   JOIN coverage_listing s ON s.gtin = per.gtin WHERE c.registered_at < :to GROUP BY s.location),
          done AS (SELECT q.location AS g, count(DISTINCT q.gtin) AS n, count(*) AS k FROM quality_inspection q
                   JOIN coverage_listing s ON s.gtin = q.gtin AND s.location = q.location
                   WHERE q.occurred_at >= :from AND q.occurred_at < :to GROUP BY q.location),
          due AS (SELECT s.location AS g, count(*) AS n FROM coverage_product c
                  JOIN coverage_listing s ON s.gtin = c.gtin WHERE \(overdueCondition) GROUP BY s.location)
        SELECT listed.g, listed.n - coalesce(late.n, 0), coalesce(done.n, 0), coalesce(done.k, 0),
          listed.n - coalesce(late.n, 0) - coalesce(seen.n, 0), coalesce(due.n, 0)
        FROM listed LEFT JOIN late ON late.g = listed.g LEFT JOIN seen ON seen.g = listed.g
          LEFT JOIN done ON done.g = listed.g LEFT JOIN due ON due.g = listed.g
        WHERE listed.n > coalesce(late.n, 0) ORDER BY listed.g
        """
}
