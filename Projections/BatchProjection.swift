import GRDB
import Inspection

/// Batch and task state: the seed's statuses, counts and expiry, as the domain derives them.
///
/// Tables `batch` (one row per batch), `batch_task` (a batch's tasks in allocation order, one row
/// each) and `task` (one row per task: its immutable facts, which the other folds look up through
/// the ``TaskDirectory``, and its state).
public struct BatchProjection: Projection {
    public init() {}
    public var name: String { "batches" }
    /// Version 4: a batch's tasks are rows of `batch_task` (they were a comma-joined column).
    public var version: Int { 4 }
    public var dependencies: [String] { [] }
    /// `task_state` and `task_directory` are version 1's tables, dropped when upgrading.
    public var tables: [String] { ["batch", "batch_task", "task", "task_state", "task_directory"] }
    public var migrations: [String] {
        [
            """
            CREATE TABLE batch (
              id TEXT PRIMARY KEY, inspector TEXT NOT NULL, location TEXT NOT NULL, mode INTEGER NOT NULL,
              status INTEGER NOT NULL, paused INTEGER NOT NULL, expired INTEGER NOT NULL,
              allocated_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
              task_count INTEGER NOT NULL, resolved INTEGER NOT NULL,
              begun INTEGER NOT NULL, inspected_without_photo INTEGER NOT NULL, collected INTEGER NOT NULL,
              skipped INTEGER NOT NULL, passed INTEGER NOT NULL, failed INTEGER NOT NULL,
              inspection_skipped INTEGER NOT NULL, photos INTEGER NOT NULL) WITHOUT ROWID
            """,
            """
            CREATE TABLE batch_task (
              batch TEXT NOT NULL, ordinal INTEGER NOT NULL, task TEXT NOT NULL,
              PRIMARY KEY (batch, ordinal)) WITHOUT ROWID
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
    var mode: InspectionMode
    var status: BatchStatus
    var paused: Bool
    var expired: Bool
    var allocatedAt: Int64
    var expiresAt: Int64
    var updatedAt: Int64
    /// The batch's tasks in allocation order (rows of `batch_task`).
    var taskIDs: [String]
    /// What the tasks add up to: the domain's counts, from which statuses 2–5 follow.
    var progress: BatchProgress
    var collected = 0
    var skipped = 0
    var passed = 0
    var failed = 0
    var inspectionSkipped = 0
    var photos = 0

    /// Statuses 2–5 follow from the tasks, by the domain's rule (``BatchProgress/status(from:)``).
    mutating func settle() { status = progress.status(from: status) }
}

struct TaskStateRow: Sendable, Hashable {
    /// Collection and inspection status and phase, changed only by the domain's transitions.
    var progress: TaskProgress
    var verdicts = 0
    var passed = 0
    var warning = 0
    var failure = 0
    var unable = 0
    var photos = 0
    var updatedAt: Int64
}

final class BatchFold: ProjectionFold {
    private let context: FoldContext
    private let batches: RowCache<String, BatchRow>
    /// Tasks live on the directory's records; these changed since the last flush.
    private var dirtyTasks: [TaskRecord] = []
    /// Batches allocated since the last flush, whose `batch_task` rows are still to be written.
    private var allocatedBatches: [(batchID: String, taskIDs: [String])] = []
    private let directory: TaskDirectory
    private let writeBatch: WriteStatement
    private let writeBatchTask: WriteStatement
    private let writeTask: WriteStatement
    private let selectBatch: Statement
    private let selectBatchTasks: Statement

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
              expires_at, updated_at, task_count, resolved, begun, inspected_without_photo, collected,
              skipped, passed, failed, inspection_skipped, photos)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        writeBatchTask = try context.writeStatement(
            db, "INSERT OR REPLACE INTO batch_task (batch, ordinal, task) VALUES (?, ?, ?)")
        writeTask = try context.writeStatement(
            db,
            """
            INSERT OR REPLACE INTO task (task, batch, inspector, location, gtin, mode, allocated_at, position,
              collection, skip_reason, inspection, phase, verdicts, passed, warning, failure, unable, photos,
              updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        selectBatch = try db.makeStatement(sql: "SELECT * FROM batch WHERE id = ?")
        selectBatchTasks = try db.makeStatement(sql: "SELECT task FROM batch_task WHERE batch = ? ORDER BY ordinal")
    }

    func apply(_ event: TaskEvent, _ envelope: EventEnvelope, _ task: TaskRecord) throws {
        let time = envelope.occurredAt
        switch event.kind {
        case .productCollected:
            try changeTask(task, time) {
                $0.progress.collect()
            } batch: {
                $0.collected += 1
            }
        case .collectionSkipped:
            try changeTask(task, time) {
                $0.progress.skipCollection(event.skipReason)
            } batch: {
                $0.skipped += 1
            }
        case .inspectionStarted:
            try changeTask(task, time) {
                $0.progress.startInspection()
            } batch: { _ in
            }
        case .inspectionPaused:
            try changeTask(task, time) { $0.progress.pauseInspection() }
        case .attributeVerdictRecorded:
            try changeTask(task, time) { $0.verdicts += 1 }
        case .photoAttached:
            try changeTask(task, time) {
                $0.photos += 1
            } batch: {
                $0.photos += 1
            }
        case .photoDetached:
            try changeTask(task, time) {
                $0.photos = max(0, $0.photos - 1)
            } batch: {
                $0.photos = max(0, $0.photos - 1)
            }
        case .inspectionFinished:
            try changeTask(task, time) {
                $0.progress.finishInspection(event.result)
                $0.passed = Int(event.passed)
                $0.warning = Int(event.warning)
                $0.failure = Int(event.failure)
                $0.unable = Int(event.unable)
            } batch: {
                if event.result == .passed { $0.passed += 1 } else { $0.failed += 1 }
            }
        case .inspectionSkipped:
            try changeTask(task, time) {
                $0.progress.skipInspection()
            } batch: {
                $0.inspectionSkipped += 1
            }
        }
    }

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope) throws {
        let time = envelope.occurredAt
        switch event {
        case .batchAllocated(let event):
            var progress = BatchProgress(taskCount: event.tasks.count)
            for task in event.tasks {
                let state = TaskStateRow(progress: .allocatedInBatch, updatedAt: time)
                progress.add(state.progress, photos: state.photos)
                allocate(
                    TaskFacts(
                        taskID: task.taskID, batchID: event.batchID, inspectorID: event.inspectorID,
                        locationID: event.locationID, gtin: task.gtin, mode: event.mode.rawValue, allocatedAt: time,
                        position: envelope.position),
                    state)
            }
            let taskIDs = event.tasks.map(\.taskID)
            allocatedBatches.append((event.batchID, taskIDs))
            batches.insert(
                event.batchID,
                BatchRow(
                    id: event.batchID, inspector: event.inspectorID, location: event.locationID, mode: event.mode,
                    status: .assigned, paused: false, expired: false, allocatedAt: time,
                    expiresAt: event.expiresAt.microsecondsSinceEpoch, updatedAt: time,
                    taskIDs: taskIDs, progress: progress))
        case .adHocTaskAllocated(let event):
            allocate(
                TaskFacts(
                    taskID: event.taskID, batchID: "", inspectorID: event.inspectorID, locationID: event.locationID,
                    gtin: event.gtin, mode: InspectionMode.adHoc.rawValue, allocatedAt: time,
                    position: envelope.position),
                TaskStateRow(progress: .allocatedAdHoc, updatedAt: time))
        case .collectionStarted(let event):
            try batch(event.batchID, time) {
                $0.status = .collectionStarted
                $0.paused = false
            }
        case .collectionPaused(let event):
            try batch(event.batchID, time) { $0.paused = true }
        case .collectionFinished(let event):
            try batch(event.batchID, time) {
                $0.status = .collectionCompleted
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
            try batch(event.batchID, time) { $0.status = .submitted }
        default:
            // Reference data, datasheets and rule findings do not touch batches; task events come
            // as ``TaskEvent``s. A new event type lands here until it gets a case.
            break
        }
    }

    func flush(at position: UInt64) throws {
        try batches.flush(at: position) { _, row in
            try writeBatch.execute(
                .text(row.id), .text(row.inspector), .text(row.location), .code(row.mode), .code(row.status),
                .bool(row.paused), .bool(row.expired), .integer(row.allocatedAt), .integer(row.expiresAt),
                .integer(row.updatedAt), .int(row.progress.taskCount),
                .int(row.progress.resolved), .int(row.progress.begun), .int(row.progress.inspectedWithoutPhoto),
                .int(row.collected), .int(row.skipped),
                .int(row.passed), .int(row.failed), .int(row.inspectionSkipped), .int(row.photos))
        }
        for (batchID, taskIDs) in allocatedBatches {
            for (ordinal, taskID) in taskIDs.enumerated() {
                try writeBatchTask.execute(.text(batchID), .int(ordinal), .text(taskID))
            }
        }
        allocatedBatches.removeAll(keepingCapacity: true)
        for record in dirtyTasks {
            record.stateDirty = false
            let row = record.state
            try writeTask.execute(
                .text(record.taskID), .text(record.batchID), .text(record.inspectorID), .text(record.locationID),
                .text(record.gtin), .int(record.mode), .integer(record.allocatedAt), .integer(Int64(record.position)),
                .code(row.progress.collection), .code(row.progress.skipReason), .code(row.progress.inspection),
                .code(row.progress.phase), .int(row.verdicts), .int(row.passed), .int(row.warning), .int(row.failure),
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

    /// Changes a task, then its batch (if it has one): the batch's counts follow the task
    /// (``BatchProgress``), `update` changes the batch's own tallies, and statuses 2–5 settle.
    /// The batch is touched only when `update` is given or the task's change moves its counts.
    private func changeTask(
        _ record: TaskRecord, _ time: Int64, _ body: (inout TaskStateRow) -> Void,
        batch update: ((inout BatchRow) -> Void)? = nil
    ) throws {
        let before = record.state
        var row = before
        body(&row)
        row.updatedAt = time
        record.state = row
        markDirty(record)
        guard !record.batchID.isEmpty else { return }
        var moved = BatchProgress(taskCount: 0)
        moved.remove(before.progress, photos: before.photos)
        moved.add(row.progress, photos: row.photos)
        guard update != nil || moved != BatchProgress(taskCount: 0) else { return }
        try batch(record.batchID, time) {
            $0.progress.remove(before.progress, photos: before.photos)
            $0.progress.add(row.progress, photos: row.photos)
            update?(&$0)
            $0.settle()
        }
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
        var taskIDs: [String] = []
        try batch(id, time) {
            $0.status = .cancelled
            $0.paused = false
            $0.expired = expired
            taskIDs = $0.taskIDs
        }
        for taskID in taskIDs {
            guard let record = try directory.record(taskID), !record.state.progress.isResolved else { continue }
            try changeTask(record, time) { $0.progress.returnWithClosedBatch() }
        }
    }

    private func loadBatch(_ id: String) throws -> BatchRow? {
        guard !batches.isComplete else { return nil }
        let found = try context.read { _ in
            try Row.fetchOne(selectBatch, arguments: [id]).map {
                ($0, try String.fetchAll(selectBatchTasks, arguments: [id]))
            }
        }
        guard let (row, taskIDs) = found else { return nil }
        return BatchRow(
            id: row["id"], inspector: row["inspector"], location: row["location"],
            mode: try row.decode(forColumn: "mode"), status: try row.decode(forColumn: "status"),
            paused: row["paused"], expired: row["expired"], allocatedAt: row["allocated_at"],
            expiresAt: row["expires_at"], updatedAt: row["updated_at"], taskIDs: taskIDs,
            progress: BatchProgress(
                taskCount: row["task_count"], resolved: row["resolved"], begun: row["begun"],
                inspectedWithoutPhoto: row["inspected_without_photo"]),
            collected: row["collected"], skipped: row["skipped"], passed: row["passed"], failed: row["failed"],
            inspectionSkipped: row["inspection_skipped"], photos: row["photos"])
    }
}
