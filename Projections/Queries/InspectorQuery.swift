import GRDB

/// One inspector's work over a period (sums of the per-day rows).
public struct InspectorSummary: Sendable, Hashable, Codable {
    /// The inspector id.
    public var inspectorID: String
    /// The period of this row when broken down by day, week or month (`2026-01-05`, the week's
    /// Monday, `2026-01`); absent for totals over the whole period.
    public var period: String?
    /// Display name (the id when not registered).
    public var name: String
    /// Days with any activity.
    public var days: Int
    /// Tasks allocated to them.
    public var allocated: Int
    /// Products collected.
    public var collected: Int
    /// Collections skipped: unable to collect (reason 0).
    public var skippedUnableToCollect: Int
    /// Collections skipped: out of stock (reason 1).
    public var skippedOutOfStock: Int
    /// Collections skipped: no longer available (reason 2).
    public var skippedNoLongerAvailable: Int
    /// Inspections finished.
    public var inspected: Int
    /// Inspections passed.
    public var passed: Int
    /// Inspections failed.
    public var failed: Int
    /// Inspections skipped.
    public var inspectionSkipped: Int
    /// Attribute verdicts recorded.
    public var attributesVerified: Int
    /// Photos attached.
    public var photos: Int
    /// Inspection time (start to finish, pauses excluded) over the timed tasks, µs.
    public var inspectingMicros: Int64
    /// Finished inspections with a start time.
    public var timedTasks: Int
    /// `inspectingMicros / timedTasks` in seconds; nil without timed tasks.
    public var secondsPerTask: Double?
    /// With a breakdown: inspections minus those of the inspector's period before (nil for their
    /// first period).
    public var change: Int?
}

extension ProjectionStore {
    /// Per inspector, the days from `from` (inclusive) to `to` (exclusive), µs since the epoch;
    /// each day is the UTC day of the events' occurred-at times. Sorted by inspector id.
    ///
    /// With `per`, one row per inspector and day, week or month, each with the change in
    /// inspections from the inspector's period before.
    public func inspectorAnalytics(from: Int64? = nil, to: Int64? = nil, per: PeriodUnit? = nil) throws
        -> [InspectorSummary]
    {
        let period = per.map { $0.sql(seconds: "d.day * 86400") } ?? "NULL"
        let firstDay = from.map { Self.day($0) } ?? Int64.min
        let endDay = to.map { Self.day($0 - 1) } ?? Int64.max
        var rows: [InspectorSummary] = try database.read { db in
            guard try db.tableExists("inspector_day") else { return [] }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT d.inspector, coalesce(i.name, d.inspector) AS name, count(*) AS days,
                      \(period) AS period,
                      sum(allocated), sum(collected), sum(skipped_unable), sum(skipped_out_of_stock),
                      sum(skipped_unavailable), sum(inspected), sum(passed), sum(failed), sum(inspection_skipped),
                      sum(verdicts), sum(photos), sum(worked_us), sum(timed_tasks)
                    FROM inspector_day d LEFT JOIN inspector i ON i.id = d.inspector
                    WHERE d.day >= ? AND d.day <= ?
                    GROUP BY d.inspector, period ORDER BY d.inspector, period
                    """, arguments: [firstDay, endDay]
            ).map { row -> InspectorSummary in
                let worked: Int64 = row[15]
                let timed: Int = row[16]
                return InspectorSummary(
                    inspectorID: row[0], period: row[3], name: row[1], days: row[2], allocated: row[4],
                    collected: row[5],
                    skippedUnableToCollect: row[6], skippedOutOfStock: row[7], skippedNoLongerAvailable: row[8],
                    inspected: row[9], passed: row[10], failed: row[11], inspectionSkipped: row[12],
                    attributesVerified: row[13], photos: row[14], inspectingMicros: worked, timedTasks: timed,
                    secondsPerTask: timed > 0 ? Double(worked) / Double(timed) / 1e6 : nil)
            }
        }
        if per != nil {
            for index in rows.indices.dropFirst() where rows[index - 1].inspectorID == rows[index].inspectorID {
                rows[index].change = rows[index].inspected - rows[index - 1].inspected
            }
        }
        return rows
    }

    static func day(_ micros: Int64) -> Int64 { InspectorFold.day(micros) }
}
