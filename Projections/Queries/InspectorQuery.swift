import Chronology
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
    /// Per inspector, the days from `from` (inclusive) to `to` (exclusive); each day is the UTC
    /// day of the events' occurred-at times. Sorted by inspector id.
    ///
    /// With `per`, one row per inspector and day, week or month (named as coverage names its
    /// periods: ``PeriodUnit/name(key:)``), each with the change in inspections from the
    /// inspector's period before.
    public func inspectorAnalytics(from: Timestamp? = nil, to: Timestamp? = nil, per: PeriodUnit? = nil) throws
        -> [InspectorSummary]
    {
        let firstDay = from?.daysSinceEpoch ?? Int64.min
        let endDay = to.map { $0.adding(microseconds: -1).daysSinceEpoch } ?? Int64.max
        var rows: [InspectorSummary] = try database.read { db in
            guard try db.tableExists("inspector_day") else { return [] }
            // The days in order, each inspector's days of one period one after another.
            let days = try Row.fetchCursor(
                db,
                sql: """
                    SELECT d.inspector, coalesce(i.name, d.inspector) AS name, d.day,
                      allocated, collected, skipped_unable, skipped_out_of_stock, skipped_unavailable, inspected,
                      passed, failed, inspection_skipped, verdicts, photos, worked_us, timed_tasks
                    FROM inspector_day d LEFT JOIN inspector i ON i.id = d.inspector
                    WHERE d.day >= ? AND d.day <= ?
                    ORDER BY d.inspector, d.day
                    """, arguments: [firstDay, endDay])
            var summaries: [InspectorSummary] = []
            var periodKey: Int64?
            while let row = try days.next() {
                let inspector: String = row[0]
                let key = per?.key(day: row[2])
                if summaries.last?.inspectorID != inspector || key != periodKey {
                    summaries.append(
                        InspectorSummary(
                            inspectorID: inspector, period: key.flatMap { per?.name(key: $0) }, name: row[1], days: 0,
                            allocated: 0, collected: 0, skippedUnableToCollect: 0, skippedOutOfStock: 0,
                            skippedNoLongerAvailable: 0, inspected: 0, passed: 0, failed: 0, inspectionSkipped: 0,
                            attributesVerified: 0, photos: 0, inspectingMicros: 0, timedTasks: 0))
                    periodKey = key
                }
                summaries[summaries.count - 1].add(row)
            }
            return summaries
        }
        for index in rows.indices where rows[index].timedTasks > 0 {
            rows[index].secondsPerTask =
                Double(rows[index].inspectingMicros) / Double(rows[index].timedTasks) / 1e6
        }
        if per != nil {
            for index in rows.indices.dropFirst() where rows[index - 1].inspectorID == rows[index].inspectorID {
                rows[index].change = rows[index].inspected - rows[index - 1].inspected
            }
        }
        return rows
    }
}

extension InspectorSummary {
    /// Adds one `inspector_day` row (columns 3… as ``ProjectionStore/inspectorAnalytics(from:to:per:)``
    /// selects them).
    fileprivate mutating func add(_ row: Row) {
        days += 1
        allocated += row[3] as Int
        collected += row[4] as Int
        skippedUnableToCollect += row[5] as Int
        skippedOutOfStock += row[6] as Int
        skippedNoLongerAvailable += row[7] as Int
        inspected += row[8] as Int
        passed += row[9] as Int
        failed += row[10] as Int
        inspectionSkipped += row[11] as Int
        attributesVerified += row[12] as Int
        photos += row[13] as Int
        inspectingMicros += row[14] as Int64
        timedTasks += row[15] as Int
    }
}
