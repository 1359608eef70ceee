import Chronology
import GRDB
import Inspection

/// Inspector analytics per inspector and day (UTC, by the event's occurred-at time): allocated,
/// collected, skipped by reason, inspected, passed/failed, attributes verified, photos, and the
/// time spent inspecting, from InspectionStarted to InspectionFinished minus the pauses.
public struct InspectorProjection: Projection {
    public init() {}
    public var name: String { "inspectors" }
    public var version: Int { 1 }
    public var eventTypes: Set<String>? {
        [
            "InspectorRegistered", "BatchAllocated", "AdHocTaskAllocated", "ProductCollected", "CollectionSkipped",
            "AttributeVerdictRecorded", "PhotoAttached", "InspectionStarted", "InspectionPaused", "InspectionFinished",
            "InspectionSkipped",
        ]
    }
    public var dependencies: [String] { ["batches"] }
    public var tables: [String] { ["inspector", "inspector_day", "inspector_open_timer"] }
    public var migrations: [String] {
        [
            "CREATE TABLE inspector (id TEXT PRIMARY KEY, name TEXT NOT NULL, role INTEGER NOT NULL) WITHOUT ROWID",
            """
            CREATE TABLE inspector_day (
              inspector TEXT NOT NULL, day INTEGER NOT NULL, allocated INTEGER NOT NULL, collected INTEGER NOT NULL,
              skipped_unable INTEGER NOT NULL, skipped_out_of_stock INTEGER NOT NULL,
              skipped_unavailable INTEGER NOT NULL, inspected INTEGER NOT NULL, passed INTEGER NOT NULL,
              failed INTEGER NOT NULL, inspection_skipped INTEGER NOT NULL, verdicts INTEGER NOT NULL,
              photos INTEGER NOT NULL, worked_us INTEGER NOT NULL, timed_tasks INTEGER NOT NULL,
              PRIMARY KEY (inspector, day)) WITHOUT ROWID
            """,
            """
            CREATE TABLE inspector_open_timer (
              task TEXT PRIMARY KEY, running_since INTEGER, worked_us INTEGER NOT NULL) WITHOUT ROWID
            """,
        ]
    }

    public func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold {
        try InspectorFold(db, context: context)
    }
}

struct InspectorDayKey: Hashable {
    var inspector: String
    var day: Int64
}

struct InspectorDayRow: Sendable, Hashable {
    var allocated = 0
    var collected = 0
    var skippedUnable = 0
    var skippedOutOfStock = 0
    var skippedUnavailable = 0
    var inspected = 0
    var passed = 0
    var failed = 0
    var inspectionSkipped = 0
    var verdicts = 0
    var photos = 0
    var workedMicros: Int64 = 0
    var timedTasks = 0

    /// Adds another row's counts (every column is a count or a sum).
    mutating func add(_ other: InspectorDayRow) {
        allocated += other.allocated
        collected += other.collected
        skippedUnable += other.skippedUnable
        skippedOutOfStock += other.skippedOutOfStock
        skippedUnavailable += other.skippedUnavailable
        inspected += other.inspected
        passed += other.passed
        failed += other.failed
        inspectionSkipped += other.inspectionSkipped
        verdicts += other.verdicts
        photos += other.photos
        workedMicros += other.workedMicros
        timedTasks += other.timedTasks
    }
}

/// Time spent on a task's inspection so far; `runningSince` is nil while paused.
struct InspectionTimer: Sendable, Hashable {
    var runningSince: Int64?
    var worked: Int64 = 0
    var closed = false
    var stored = false
}

final class InspectorFold: ProjectionFold {
    private let context: FoldContext
    private let days: RowCache<InspectorDayKey, InspectorDayRow>
    /// Consecutive events mostly count for the same inspector and day: their counts gather here
    /// and go into ``days`` when the key changes, and at a flush.
    private var pendingKey: InspectorDayKey?
    private var pending = InspectorDayRow()
    /// Timers live on the directory's task records; these changed since the last flush.
    private var dirtyTimers: [TaskRecord] = []
    private let checkpoint: UInt64
    private let directory: TaskDirectory?
    private let upsertInspector: WriteStatement
    private let upsertDay: WriteStatement
    private let upsertTimer: WriteStatement
    private let deleteTimer: WriteStatement
    private let selectDay: Statement
    /// Per inspector, the latest day of their rows in `inspector_day`: a later day has no row
    /// to load. Per inspector, not overall: events come in time order, so a day first met for one
    /// inspector is mostly today for another already stored, and each such miss would be a read
    /// that waits for every queued write.
    private var storedDayMax: [String: Int64] = [:]
    private let selectTimer: Statement

    init(_ db: Database, context: FoldContext) throws {
        let checkpoint = context.checkpoint
        let limit = context.workingSetLimit
        self.context = context
        directory = context.directory
        self.checkpoint = checkpoint
        days = RowCache(capacity: limit / 5 + 1, completeAfter: checkpoint)
        upsertInspector = try context.writeStatement(
            db, "INSERT OR REPLACE INTO inspector (id, name, role) VALUES (?, ?, ?)")
        upsertDay = try context.writeStatement(
            db,
            """
            INSERT OR REPLACE INTO inspector_day (inspector, day, allocated, collected, skipped_unable,
              skipped_out_of_stock, skipped_unavailable, inspected, passed, failed, inspection_skipped, verdicts,
              photos, worked_us, timed_tasks)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        upsertTimer = try context.writeStatement(
            db,
            "INSERT OR REPLACE INTO inspector_open_timer (task, running_since, worked_us) VALUES (?, ?, ?)")
        deleteTimer = try context.writeStatement(
            db, "DELETE FROM inspector_open_timer WHERE task = ?")
        selectDay = try db.makeStatement(sql: "SELECT * FROM inspector_day WHERE inspector = ? AND day = ?")
        for row in try Row.fetchAll(db, sql: "SELECT inspector, max(day) FROM inspector_day GROUP BY inspector") {
            storedDayMax[row[0]] = row[1]
        }
        selectTimer = try db.makeStatement(
            sql: "SELECT running_since, worked_us FROM inspector_open_timer WHERE task = ?")
    }

    func apply(_ event: TaskEvent, _ envelope: EventEnvelope, _ record: TaskRecord) throws {
        let time = envelope.occurredAt
        switch event.kind {
        case .productCollected:
            try day(record.inspectorID, time) { $0.collected += 1 }
        case .collectionSkipped:
            try day(record.inspectorID, time) {
                switch event.skipReason {
                case .unableToCollect: $0.skippedUnable += 1
                case .outOfStock: $0.skippedOutOfStock += 1
                case .noLongerAvailable: $0.skippedUnavailable += 1
                }
            }
        case .attributeVerdictRecorded:
            try day(record.inspectorID, time) { $0.verdicts += 1 }
        case .photoAttached:
            try day(record.inspectorID, time) { $0.photos += 1 }
        case .photoDetached:
            // The day's count is photos taken; a detached one was still taken that day.
            break
        case .inspectionStarted:
            try loadTimer(record)
            if var timer = record.timer, !timer.closed {
                timer.runningSince = timer.runningSince ?? time
                record.timer = timer
            } else {
                record.timer = InspectionTimer(runningSince: time, stored: record.timer?.stored ?? false)
            }
            markDirty(record)
        case .inspectionPaused:
            try loadTimer(record)
            guard var timer = record.timer, !timer.closed else { return }
            if let since = timer.runningSince { timer.worked += max(0, time - since) }
            timer.runningSince = nil
            record.timer = timer
            markDirty(record)
        case .inspectionFinished:
            try loadTimer(record)
            var worked: Int64?
            if let timer = record.timer, !timer.closed {
                worked = timer.worked + (timer.runningSince.map { max(0, time - $0) } ?? 0)
                close(record)
            }
            try day(record.inspectorID, time) {
                $0.inspected += 1
                if event.result == .passed { $0.passed += 1 } else { $0.failed += 1 }
                if let worked {
                    $0.workedMicros += worked
                    $0.timedTasks += 1
                }
            }
        case .inspectionSkipped:
            try loadTimer(record)
            close(record)
            try day(record.inspectorID, time) { $0.inspectionSkipped += 1 }
        }
    }

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope) throws {
        let time = envelope.occurredAt
        switch event {
        case .inspectorRegistered(let event):
            try upsertInspector.execute(.text(event.inspectorID), .text(event.name), .int(event.role.rawValue))
        case .batchAllocated(let event):
            try day(event.inspectorID, time) { $0.allocated += event.tasks.count }
        case .adHocTaskAllocated(let event):
            try day(event.inspectorID, time) { $0.allocated += 1 }
        default:
            break
        }
    }

    func flush(at position: UInt64) throws {
        try settlePending()
        try days.flush(at: position) { key, row in
            if key.day > storedDayMax[key.inspector, default: .min] { storedDayMax[key.inspector] = key.day }
            try upsertDay.execute(
                .text(key.inspector), .integer(key.day), .int(row.allocated), .int(row.collected),
                .int(row.skippedUnable), .int(row.skippedOutOfStock), .int(row.skippedUnavailable),
                .int(row.inspected), .int(row.passed), .int(row.failed), .int(row.inspectionSkipped),
                .int(row.verdicts), .int(row.photos), .integer(row.workedMicros), .int(row.timedTasks))
        }
        for record in dirtyTimers {
            record.timerDirty = false
            guard let timer = record.timer else { continue }
            if timer.closed {
                try deleteTimer.execute(.text(record.taskID))
                record.timer = nil
            } else {
                try upsertTimer.execute(
                    .text(record.taskID), .optional(timer.runningSince), .integer(timer.worked))
                record.timer?.stored = true
            }
        }
        dirtyTimers.removeAll(keepingCapacity: true)
    }

    /// The inspection ended: its timer goes (the stored row is deleted at the next flush).
    private func close(_ record: TaskRecord) {
        guard let timer = record.timer, !timer.closed else { return }
        if timer.stored {
            record.timer?.closed = true
            markDirty(record)
        } else {
            record.timer = nil
        }
    }

    private func markDirty(_ record: TaskRecord) {
        guard !record.timerDirty else { return }
        record.timerDirty = true
        dirtyTimers.append(record)
    }

    private func day(_ inspector: String, _ time: Int64, _ body: (inout InspectorDayRow) -> Void)
        throws
    {
        let key = InspectorDayKey(inspector: inspector, day: Timestamp(microsecondsSinceEpoch: time).daysSinceEpoch)
        if key != pendingKey {
            try settlePending()
            pendingKey = key
        }
        body(&pending)
    }

    private func settlePending() throws {
        guard let key = pendingKey else { return }
        let counts = pending
        try days.modify(key, load: { try self.loadDay($0) ?? InspectorDayRow() }) { $0.add(counts) }
        pendingKey = nil
        pending = InspectorDayRow()
    }

    private func loadDay(_ key: InspectorDayKey) throws -> InspectorDayRow? {
        guard !days.isComplete, key.day <= storedDayMax[key.inspector, default: .min] else { return nil }
        guard let row = try context.read({ _ in try Row.fetchOne(selectDay, arguments: [key.inspector, key.day]) })
        else { return nil }
        return InspectorDayRow(
            allocated: row["allocated"], collected: row["collected"], skippedUnable: row["skipped_unable"],
            skippedOutOfStock: row["skipped_out_of_stock"], skippedUnavailable: row["skipped_unavailable"],
            inspected: row["inspected"], passed: row["passed"], failed: row["failed"],
            inspectionSkipped: row["inspection_skipped"], verdicts: row["verdicts"], photos: row["photos"],
            workedMicros: row["worked_us"], timedTasks: row["timed_tasks"])
    }

    /// Reads the task's timer from the table the first time it is met (not for a task allocated
    /// since this fold started: it has none stored).
    private func loadTimer(_ record: TaskRecord) throws {
        guard !record.timerLoaded else { return }
        record.timerLoaded = true
        guard let directory, !directory.isNew(record, since: checkpoint) else { return }
        guard let row = try context.read({ _ in try Row.fetchOne(selectTimer, arguments: [record.taskID]) })
        else { return }
        record.timer = InspectionTimer(runningSince: row[0], worked: row[1], closed: false, stored: true)
    }
}
