import Chronology
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

extension PeriodUnit {
    /// The period of day number `day` (days since 1970-01-01): the day itself, its week's Monday,
    /// or its month (``CivilDate/monthsSinceYearZero``).
    func key(day: Int64) -> Int64 {
        switch self {
        case .day: day
        case .week: CivilDate.startOfWeek(day: day)
        case .month: CivilDate(daysSinceEpoch: day).monthsSinceYearZero
        }
    }

    /// A period's name: `2026-01-05` for a day or a week's Monday, `2026-01` for a month.
    func name(key: Int64) -> String {
        switch self {
        case .day, .week: CivilDate(daysSinceEpoch: key).description
        case .month: CivilDate.monthName(monthsSinceYearZero: key)
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
    /// Coverage from `from` (inclusive) to `to` (exclusive), open ends when nil.
    ///
    /// Counted in ordered passes over the coverage projection's indexes (see ``CoverageProjection``,
    /// ``CoveragePasses`` and ``CoveragePeriods``): each product's inspections are read once from
    /// `(gtin, occurred_at)`, a grouping's distinct products come in order from
    /// `(group, gtin, occurred_at)`, and only received products are checked for being overdue.
    /// Each answer equals the plain definition in `CoverageRow`'s fields (a test compares them on
    /// generated histories).
    public func coverage(from: Timestamp? = nil, to: Timestamp? = nil, by grouping: CoverageGrouping) throws
        -> [CoverageRow]
    {
        try coverage(from: from, to: to, by: [grouping])[0]
    }

    /// Coverage by each of `groupings`, in that order, read in one transaction (the tables agree
    /// with each other); the type and location groupings share one pass over the catalogue.
    public func coverage(from: Timestamp? = nil, to: Timestamp? = nil, by groupings: [CoverageGrouping]) throws
        -> [[CoverageRow]]
    {
        let from = from?.microsecondsSinceEpoch ?? Int64.min
        let to = to?.microsecondsSinceEpoch ?? Int64.max
        return try database.read { db in
            guard try db.tableExists("quality_inspection"), try db.tableExists("coverage_product") else {
                return groupings.map { _ in [] }
            }
            let passes = CoveragePasses(from: from, to: to)
            let merge = try passes.catalogueMerge(
                db, types: groupings.contains(.type), locations: groupings.contains(.location))
            return try groupings.map { grouping in
                let figures: [CoverageFigures]
                switch grouping {
                case .type: figures = try passes.byType(db, merge)
                case .location: figures = try passes.byLocation(db, merge)
                case .mode: figures = try passes.byColumn(db, "mode", numeric: true)
                case .inspector: figures = try passes.byColumn(db, "inspector", numeric: false)
                case .day: figures = try Self.periodCoverage(db, unit: .day, from: from, to: to)
                case .week: figures = try Self.periodCoverage(db, unit: .week, from: from, to: to)
                case .month: figures = try Self.periodCoverage(db, unit: .month, from: from, to: to)
                }
                return Self.coverageRows(figures, grouping: grouping)
            }
        }
    }

    /// One group's figures as the queries count them.
    private typealias CoverageFigures = CoveragePasses.Figures

    /// A time grouping's figures counted in one ordered pass (``CoveragePeriods``); when a time
    /// lies outside what SQLite's dates name, SQLite names and counts the periods.
    private static func periodCoverage(_ db: Database, unit: PeriodUnit, from: Int64, to: Int64) throws
        -> [CoverageFigures]
    {
        let periods = CoveragePeriods(unit: unit)
        guard let totals = try periods.totals(db, from: from, to: to) else {
            let column = unit.sql(seconds: "occurred_at / 1000000")
            let sql = """
                SELECT CAST(\(column) AS TEXT) AS g,
                  (SELECT count(*) FROM coverage_product WHERE registered_at < :to) AS catalogue,
                  count(DISTINCT gtin), count(*)
                FROM quality_inspection WHERE occurred_at >= :from AND occurred_at < :to
                GROUP BY \(column) ORDER BY \(column)
                """
            return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: ["from": from, "to": to]).map { row in
                CoverageFigures(
                    group: row[0], catalogue: row[1], inspected: row[2], inspections: row[3], neverInspected: nil,
                    overdue: nil)
            }
        }
        guard !totals.isEmpty else { return [] }
        let catalogue =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM coverage_product WHERE registered_at < ?"),
                arguments: [to]) ?? 0
        return totals.map {
            CoverageFigures(
                group: periods.name($0.key), catalogue: catalogue, inspected: $0.totals.products,
                inspections: $0.totals.inspections, neverInspected: nil, overdue: nil)
        }
    }

    /// The rows of a grouping's figures: percentages, labels, and a time grouping's changes.
    private static func coverageRows(_ figures: [CoverageFigures], grouping: CoverageGrouping) -> [CoverageRow] {
        var previous: Int?
        return figures.map { row in
            let result = CoverageRow(
                group: row.group, grouping: grouping, catalogue: row.catalogue, inspected: row.inspected,
                percent: row.catalogue > 0 ? (Double(row.inspected) * 1000 / Double(row.catalogue)).rounded() / 10 : 0,
                inspections: row.inspections, neverInspected: row.neverInspected, overdue: row.overdue,
                change: grouping.period == nil ? nil : previous.map { row.inspections - $0 })
            previous = row.inspections
            return result
        }
    }
}
