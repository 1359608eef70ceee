import GRDB

/// One inspector's work over a period (sums of the per-day rows).
public struct InspectorSummary: Sendable, Hashable, Codable {
    /// The inspector id.
    public var inspectorID: String
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
}

extension ProjectionStore {
    /// Per inspector, the days from `from` (inclusive) to `to` (exclusive), µs since the epoch;
    /// each day is the UTC day of the events' occurred-at times. Sorted by inspector id.
    public func inspectorAnalytics(from: Int64? = nil, to: Int64? = nil) throws -> [InspectorSummary] {
        let firstDay = from.map { Self.day($0) } ?? Int64.min
        let endDay = to.map { Self.day($0 - 1) } ?? Int64.max
        return try database.read { db in
            guard try db.tableExists("inspector_day") else { return [] }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT d.inspector, coalesce(i.name, d.inspector) AS name, count(*) AS days,
                      sum(allocated), sum(collected), sum(skipped_unable), sum(skipped_out_of_stock),
                      sum(skipped_unavailable), sum(inspected), sum(passed), sum(failed), sum(inspection_skipped),
                      sum(verdicts), sum(photos), sum(worked_us), sum(timed_tasks)
                    FROM inspector_day d LEFT JOIN inspector i ON i.id = d.inspector
                    WHERE d.day >= ? AND d.day <= ?
                    GROUP BY d.inspector ORDER BY d.inspector
                    """, arguments: [firstDay, endDay]
            ).map { row in
                let worked: Int64 = row[14]
                let timed: Int = row[15]
                return InspectorSummary(
                    inspectorID: row[0], name: row[1], days: row[2], allocated: row[3], collected: row[4],
                    skippedUnableToCollect: row[5], skippedOutOfStock: row[6], skippedNoLongerAvailable: row[7],
                    inspected: row[8], passed: row[9], failed: row[10], inspectionSkipped: row[11],
                    attributesVerified: row[12], photos: row[13], inspectingMicros: worked, timedTasks: timed,
                    secondsPerTask: timed > 0 ? Double(worked) / Double(timed) / 1e6 : nil)
            }
        }
    }

    static func day(_ micros: Int64) -> Int64 { InspectorFold.day(micros) }
}
