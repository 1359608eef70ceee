import GRDB
import Inspection

/// Batch and task state: the seed's statuses, counts and expiry, as the domain derives them.
///
/// Tables `batch` (one row per batch) and `task` (one row per task: its immutable facts, which
/// the other folds look up through the ``TaskDirectory``, and its state).
public struct BatchProjection: Projection {
    public init() {}
    public var name: String { "batches" }
    public var version: Int { 2 }
    public var dependencies: [String] { [] }
    /// `task_state` and `task_directory` are version 1's tables, dropped when upgrading.
    public var tables: [String] { ["batch", "task", "task_state", "task_directory"] }
    public var migrations: [String] {
        [
            """
            CREATE TABLE batch (
              id TEXT PRIMARY KEY, inspector TEXT NOT NULL, location TEXT NOT NULL, mode INTEGER NOT NULL,
              status INTEGER NOT NULL, paused INTEGER NOT NULL, expired INTEGER NOT NULL,
              allocated_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
              task_ids TEXT NOT NULL, task_count INTEGER NOT NULL, resolved INTEGER NOT NULL,
              begun INTEGER NOT NULL, inspected_without_photo INTEGER NOT NULL, collected INTEGER NOT NULL,
              skipped INTEGER NOT NULL, passed INTEGER NOT NULL, failed INTEGER NOT NULL,
              inspection_skipped INTEGER NOT NULL, photos INTEGER NOT NULL) WITHOUT ROWID
            """,
            """
            CREATE TABLE task (
              task TEXT PRIMARY KEY, batch TEXT NOT NULL, inspector TEXT NOT NULL, location TEXT NOT NULL,
              gtin TEXT NOT NULL, mode INTEGER NOT NULL, allocated_at INTEGER NOT NULL, position INTEGER NOT NULL,
              collection INTEGER NOT NULL, skip_reason INTEGER, inspection INTEGER,
              phase INTEGER NOT NULL, verdicts INTEGER NOT NULL, passed INTEGER NOT NULL, warning INTEGER NOT NULL,
              failure INTEGER NOT NULL, unable INTEGER NOT NULL, photos INTEGER NOT NULL,
              updated_at INTEGER NOT NULL) WITHOUT ROWID
            """,
        ]
    }

    public func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold {
        let directory = try TaskDirectory(db, context: context)
        context.directory = directory
        return try BatchFold(db, directory: directory, context: context)
    }
}

struct BatchRow: Sendable, Hashable {
    var id: String
    var inspector: String
    var location: String
    var mode: Int
    var status: Int
    var paused: Bool
    var expired: Bool
    var allocatedAt: Int64
    var expiresAt: Int64
    var updatedAt: Int64
    var taskIDs: String
    var taskCount: Int
    var resolved = 0
    var begun = false
    var inspectedWithoutPhoto = 0
    var collected = 0
    var skipped = 0
    var passed = 0
    var failed = 0
    var inspectionSkipped = 0
    var photos = 0

    /// Statuses 2–5 follow from the tasks, exactly as `InspectionState.derivedStatus` does.
    mutating func settle() {
        guard (2...5).contains(status) else { return }
        if resolved >= taskCount {
            status = inspectedWithoutPhoto > 0 ? 4 : 5
        } else {
            status = begun ? 3 : 2
        }
    }
}

struct TaskStateRow: Sendable, Hashable {
    var collection: Int
    var skipReason: Int?
    var inspection: Int?
    var phase = 0
    var verdicts = 0
    var passed = 0
    var warning = 0
    var failure = 0
    var unable = 0
    var photos = 0
    var updatedAt: Int64

    var isResolved: Bool { collection == 3 || (inspection.map { $0 != 1 } ?? false) }
    var isInspected: Bool { inspection == 2 || inspection == 3 }
}

final class BatchFold: ProjectionFold {
    private let context: FoldContext
    private let batches: RowCache<String, BatchRow>
    /// Tasks live on the directory's records; these changed since the last flush.
    private var dirtyTasks: [TaskRecord] = []
    private let directory: TaskDirectory
    private let writeBatch: WriteStatement
    private let writeTask: WriteStatement
    private let selectBatch: Statement

    init(_ db: Database, directory: TaskDirectory, context: FoldContext) throws {
        let checkpoint = context.checkpoint
        let limit = context.workingSetLimit
        self.context = context
        self.directory = directory
        batches = RowCache(capacity: limit / 5 + 1, completeAfter: checkpoint)
        writeBatch = try context.writeStatement(
            db,
            """
            INSERT OR REPLACE INTO batch (id, inspector, location, mode, status, paused, expired, allocated_at,
              expires_at, updated_at, task_ids, task_count, resolved, begun, inspected_without_photo, collected,
              skipped, passed, failed, inspection_skipped, photos)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        writeTask = try context.writeStatement(
            db,
            """
            INSERT OR REPLACE INTO task (task, batch, inspector, location, gtin, mode, allocated_at, position,
              collection, skip_reason, inspection, phase, verdicts, passed, warning, failure, unable, photos,
              updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        selectBatch = try db.makeStatement(sql: "SELECT * FROM batch WHERE id = ?")
    }

    func apply(_ event: TaskEvent, _ envelope: EventEnvelope, _ task: TaskRecord) throws {
        let time = envelope.occurredAt
        switch event.kind {
        case .productCollected:
            try changeTask(task, time) {
                $0.collection = 2
                $0.inspection = 1
            } batch: { row, _ in
                row.collected += 1
            }
        case .collectionSkipped:
            try changeTask(task, time) {
                $0.collection = 3
                $0.skipReason = Int(event.code)
            } batch: { row, _ in
                row.skipped += 1
                row.resolved += 1
            }
        case .inspectionStarted:
            try changeTask(task, time) {
                $0.phase = 1
            } batch: { row, _ in
                row.begun = true
                row.settle()
            }
        case .inspectionPaused:
            try changeTask(task, time) { $0.phase = 2 }
        case .attributeVerdictRecorded:
            try changeTask(task, time) { $0.verdicts += 1 }
        case .photoAttached:
            try changeTask(task, time) {
                $0.photos += 1
            } batch: { row, task in
                row.photos += 1
                if task.isInspected && task.photos == 1 { row.inspectedWithoutPhoto -= 1 }
                row.settle()
            }
        case .inspectionFinished:
            try changeTask(task, time) {
                $0.inspection = Int(event.code)
                $0.phase = 0
                $0.passed = Int(event.passed)
                $0.warning = Int(event.warning)
                $0.failure = Int(event.failure)
                $0.unable = Int(event.unable)
            } batch: { row, task in
                row.resolved += 1
                row.begun = true
                if event.result == .passed { row.passed += 1 } else { row.failed += 1 }
                if task.photos == 0 { row.inspectedWithoutPhoto += 1 }
                row.settle()
            }
        case .inspectionSkipped:
            try changeTask(task, time) {
                $0.inspection = 4
                $0.phase = 0
            } batch: { row, _ in
                row.resolved += 1
                row.begun = true
                row.inspectionSkipped += 1
                row.settle()
            }
        }
    }

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope) throws {
        let time = envelope.occurredAt
        switch event {
        case .batchAllocated(let event):
            batches.insert(
                event.batchID,
                BatchRow(
                    id: event.batchID, inspector: event.inspectorID, location: event.locationID,
                    mode: event.mode.rawValue, status: 0, paused: false, expired: false, allocatedAt: time,
                    expiresAt: event.expiresAt.microseconds, updatedAt: time,
                    taskIDs: event.tasks.map(\.taskID).joined(separator: ","), taskCount: event.tasks.count))
            for task in event.tasks {
                allocate(
                    TaskFacts(
                        taskID: task.taskID, batchID: event.batchID, inspectorID: event.inspectorID,
                        locationID: event.locationID, gtin: task.gtin, mode: event.mode.rawValue, allocatedAt: time,
                        position: envelope.position),
                    TaskStateRow(collection: 1, updatedAt: time))
            }
        case .adHocTaskAllocated(let event):
            allocate(
                TaskFacts(
                    taskID: event.taskID, batchID: "", inspectorID: event.inspectorID, locationID: event.locationID,
                    gtin: event.gtin, mode: InspectionMode.adHoc.rawValue, allocatedAt: time,
                    position: envelope.position),
                TaskStateRow(collection: 2, inspection: 1, updatedAt: time))
        case .collectionStarted(let event):
            try batch(event.batchID, time) {
                $0.status = 1
                $0.paused = false
            }
        case .collectionPaused(let event):
            try batch(event.batchID, time) { $0.paused = true }
        case .collectionFinished(let event):
            try batch(event.batchID, time) {
                $0.status = 2
                $0.paused = false
                $0.settle()
            }
        case .collectionCancelled(let event):
            try close(event.batchID, expired: false, time)
        case .batchCancelled(let event):
            try close(event.batchID, expired: false, time)
        case .batchExpired(let event):
            try close(event.batchID, expired: true, time)
        case .batchSubmitted(let event):
            try batch(event.batchID, time) { $0.status = 6 }
        case .locationRegistered, .inspectorRegistered, .productRegistered, .datasheetImported,
            .ruleCheckRecorded, .productReceived:
            break
        case .productCollected, .collectionSkipped, .inspectionStarted, .inspectionPaused, .attributeVerdictRecorded,
            .photoAttached, .inspectionFinished, .inspectionSkipped:
            // Task events come as ``TaskEvent``s.
            break
        }
    }

    func flush(at position: UInt64) throws {
        try batches.flush(at: position) { _, row in
            try writeBatch.execute(
                .text(row.id), .text(row.inspector), .text(row.location), .int(row.mode), .int(row.status),
                .bool(row.paused), .bool(row.expired), .integer(row.allocatedAt), .integer(row.expiresAt),
                .integer(row.updatedAt), .text(row.taskIDs), .int(row.taskCount), .int(row.resolved),
                .bool(row.begun), .int(row.inspectedWithoutPhoto), .int(row.collected), .int(row.skipped),
                .int(row.passed), .int(row.failed), .int(row.inspectionSkipped), .int(row.photos))
        }
        for record in dirtyTasks {
            record.stateDirty = false
            let row = record.state
            try writeTask.execute(
                .text(record.taskID), .text(record.batchID), .text(record.inspectorID), .text(record.locationID),
                .text(record.gtin), .int(record.mode), .integer(record.allocatedAt), .integer(Int64(record.position)),
                .int(row.collection), .optional(row.skipReason), .optional(row.inspection),
                .int(row.phase), .int(row.verdicts), .int(row.passed), .int(row.warning), .int(row.failure),
                .int(row.unable), .int(row.photos), .integer(row.updatedAt))
        }
        dirtyTasks.removeAll(keepingCapacity: true)
    }

    // MARK: - Rows

    private func batch(_ id: String, _ time: Int64, _ body: (inout BatchRow) -> Void) throws {
        try batches.modify(id, load: loadBatch) {
            body(&$0)
            $0.updatedAt = time
        }
    }

    /// Changes a task, then its batch (if it has one) with the task as it is now.
    private func changeTask(
        _ record: TaskRecord, _ time: Int64, _ body: (inout TaskStateRow) -> Void,
        batch update: ((inout BatchRow, TaskStateRow) -> Void)? = nil
    ) throws {
        var row = record.state
        body(&row)
        row.updatedAt = time
        record.state = row
        markDirty(record)
        guard let update, !record.batchID.isEmpty else { return }
        try batch(record.batchID, time) { update(&$0, row) }
    }

    private func allocate(_ facts: TaskFacts, _ state: TaskStateRow) {
        markDirty(directory.allocate(facts, state: state))
    }

    private func markDirty(_ record: TaskRecord) {
        guard !record.stateDirty else { return }
        record.stateDirty = true
        dirtyTasks.append(record)
    }

    /// Status 7: every unresolved task goes back to "not allocated".
    private func close(_ id: String, expired: Bool, _ time: Int64) throws {
        var taskIDs: [Substring] = []
        try batch(id, time) {
            $0.status = 7
            $0.paused = false
            $0.expired = expired
            taskIDs = $0.taskIDs.split(separator: ",")
        }
        for taskID in taskIDs {
            guard let record = try directory.record(String(taskID)), !record.state.isResolved else { continue }
            var row = record.state
            row.collection = 0
            row.inspection = nil
            row.phase = 0
            row.updatedAt = time
            record.state = row
            markDirty(record)
        }
    }

    private func loadBatch(_ id: String) throws -> BatchRow? {
        guard !batches.isComplete else { return nil }
        guard let row = try context.read({ _ in try Row.fetchOne(selectBatch, arguments: [id]) }) else { return nil }
        return BatchRow(
            id: row["id"], inspector: row["inspector"], location: row["location"], mode: row["mode"],
            status: row["status"], paused: row["paused"], expired: row["expired"], allocatedAt: row["allocated_at"],
            expiresAt: row["expires_at"], updatedAt: row["updated_at"], taskIDs: row["task_ids"],
            taskCount: row["task_count"], resolved: row["resolved"], begun: row["begun"],
            inspectedWithoutPhoto: row["inspected_without_photo"], collected: row["collected"],
            skipped: row["skipped"], passed: row["passed"], failed: row["failed"],
            inspectionSkipped: row["inspection_skipped"], photos: row["photos"])
    }
}
