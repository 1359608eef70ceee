import Chronology
import GRDB
import Inspection

/// A batch as the batch projection holds it, with its tasks.
public struct BatchReport: Sendable, Hashable, Codable {
    /// The batch id.
    public var batchID: String
    /// Who holds the batch.
    public var inspectorID: String
    /// Where its products are collected.
    public var locationID: String
    /// ``InspectionMode`` raw value.
    public var mode: Int
    /// The mode's name (``ReportLabels/mode(_:)``).
    public var modeLabel: String
    /// `batchStatus` 0–7.
    public var status: Int
    /// The status's name ("submitted").
    public var statusLabel: String
    /// Whether collection is paused (status stays 1).
    public var paused: Bool
    /// Whether status 7 came from expiry rather than a cancellation.
    public var expired: Bool
    /// When it was allocated (occurred-at).
    public var allocatedAt: Timestamp
    /// When its open tasks are released if it is not submitted.
    public var expiresAt: Timestamp
    /// Occurred-at of the last event that changed it.
    public var updatedAt: Timestamp
    /// Tasks allocated.
    public var taskCount: Int
    /// Tasks collected.
    public var collected: Int
    /// Tasks whose collection was skipped.
    public var skipped: Int
    /// Passed: inspections (batch) or attributes (task).
    public var passed: Int
    /// Inspections failed.
    public var failed: Int
    /// Inspections skipped.
    public var inspectionSkipped: Int
    /// Photos attached.
    public var photos: Int
    /// Its tasks in allocation order.
    public var tasks: [TaskReport]
}

/// One task of a batch (or an ad-hoc task).
public struct TaskReport: Sendable, Hashable, Codable {
    /// The task id.
    public var taskID: String
    /// The product's GTIN-14.
    public var gtin: String
    /// `collectionStatus` 0–3.
    public var collectionStatus: Int
    /// Its name ("collected").
    public var collectionStatusLabel: String
    /// Skip reason 0–2 when the collection was skipped.
    public var skipReason: Int?
    /// Its name ("out of stock"), nil with the code.
    public var skipReasonLabel: String?
    /// `inspectionStatus` 1–4, nil until collected.
    public var inspectionStatus: Int?
    /// Its name ("failed"), nil with the code.
    public var inspectionStatusLabel: String?
    /// 0 not started, 1 in progress, 2 paused.
    public var phase: Int
    /// Attribute verdicts recorded.
    public var verdicts: Int
    /// Passed: inspections (batch) or attributes (task).
    public var passed: Int
    /// Attributes with a warning.
    public var warning: Int
    /// Attributes failed.
    public var failure: Int
    /// Attributes that could not be validated.
    public var unable: Int
    /// Photos attached.
    public var photos: Int
    /// Occurred-at of the last event that changed it.
    public var updatedAt: Timestamp
}

extension ProjectionStore {
    /// The batch `batchID` with its tasks in allocation order, or nil when there is none.
    public func batch(_ batchID: String) throws -> BatchReport? {
        try database.read { db in
            guard try db.tableExists("batch"),
                let row = try Row.fetchOne(db, sql: "SELECT * FROM batch WHERE id = ?", arguments: [batchID])
            else { return nil }
            let taskIDs = try String.fetchAll(
                db, sql: "SELECT task FROM batch_task WHERE batch = ? ORDER BY ordinal", arguments: [batchID])
            var tasks: [TaskReport] = []
            for taskID in taskIDs {
                if let task = try Self.task(taskID, db) { tasks.append(task) }
            }
            let mode: Int = row["mode"]
            let status: Int = row["status"]
            return BatchReport(
                batchID: row["id"], inspectorID: row["inspector"], locationID: row["location"], mode: mode,
                modeLabel: ReportLabels.mode(mode), status: status, statusLabel: ReportLabels.batchStatus(status),
                paused: row["paused"], expired: row["expired"], allocatedAt: Self.time(row["allocated_at"]),
                expiresAt: Self.time(row["expires_at"]), updatedAt: Self.time(row["updated_at"]),
                taskCount: row["task_count"],
                collected: row["collected"], skipped: row["skipped"], passed: row["passed"], failed: row["failed"],
                inspectionSkipped: row["inspection_skipped"], photos: row["photos"], tasks: tasks)
        }
    }

    /// One task (batch or ad-hoc), or nil when there is none.
    public func task(_ taskID: String) throws -> TaskReport? {
        try database.read { db in try db.tableExists("task") ? Self.task(taskID, db) : nil }
    }

    static func task(_ taskID: String, _ db: Database) throws -> TaskReport? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT * FROM task WHERE task = ?
                    """, arguments: [taskID])
        else { return nil }
        let collection: Int = row["collection"]
        let skipReason: Int? = row["skip_reason"]
        let inspection: Int? = row["inspection"]
        return TaskReport(
            taskID: taskID, gtin: row["gtin"], collectionStatus: collection,
            collectionStatusLabel: ReportLabels.collectionStatus(collection), skipReason: skipReason,
            skipReasonLabel: skipReason.map(ReportLabels.skipReason), inspectionStatus: inspection,
            inspectionStatusLabel: inspection.map(ReportLabels.inspectionStatus), phase: row["phase"],
            verdicts: row["verdicts"], passed: row["passed"],
            warning: row["warning"], failure: row["failure"], unable: row["unable"], photos: row["photos"],
            updatedAt: Self.time(row["updated_at"]))
    }
}
