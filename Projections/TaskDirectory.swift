import GRDB
import Inspection

/// What never changes about a task once it is allocated.
public struct TaskFacts: Sendable, Hashable {
    /// The task id.
    public var taskID: String
    /// The batch, or "" for an ad-hoc task.
    public var batchID: String
    /// Who holds it.
    public var inspectorID: String
    /// Where the product is collected or inspected.
    public var locationID: String
    /// The product's GTIN-14.
    public var gtin: String
    /// The inspection mode (``InspectionMode`` raw value).
    public var mode: Int
    /// When it was allocated (occurred-at, µs).
    public var allocatedAt: Int64
    /// The log position of its allocation.
    public var position: UInt64
}

/// One task's facts and the folds' working state for it, shared by reference: the runner looks
/// each event's task up once and every fold reads and changes the same record.
///
/// The batch fold's state comes with the facts; the quality and inspector folds load theirs the
/// first time they meet the task (unless it is new in this run). A fold that changes its state
/// lists the record as dirty and writes it at its next flush. The directory
/// forgets records only after every fold has flushed, so nothing unwritten is dropped.
public final class TaskRecord {
    // The facts, each a stored property: folds read one field per event, and reading a whole
    // `TaskFacts` would copy (and retain) all of them.
    let taskID: String
    let batchID: String
    let inspectorID: String
    let locationID: String
    let gtin: String
    let mode: Int
    let allocatedAt: Int64
    let position: UInt64
    /// Allocated in this run (not read back from the table): no fold has stored state for it
    /// beyond what its record holds.
    let isFresh: Bool
    /// Batches: the task's state (stored with its facts in `task`), and whether it changed
    /// since the fold last wrote it.
    var state: TaskStateRow
    var stateDirty = false
    /// Quality: the verdicts of its open inspection (nil: not loaded yet, or none); whether
    /// `quality_open_task` holds a row for it, and whether its inspection ended (the row is
    /// deleted at the next flush).
    var verdicts: OpenVerdicts?
    var verdictsLoaded = false
    var verdictsDirty = false
    var verdictsStored = false
    var verdictsClosed = false
    /// Inspectors: the inspection's work timer (nil: not loaded yet, or none).
    var timer: InspectionTimer?
    var timerLoaded = false
    var timerDirty = false

    init(_ facts: TaskFacts, state: TaskStateRow, isFresh: Bool) {
        self.isFresh = isFresh
        taskID = facts.taskID
        batchID = facts.batchID
        inspectorID = facts.inspectorID
        locationID = facts.locationID
        gtin = facts.gtin
        mode = facts.mode
        allocatedAt = facts.allocatedAt
        position = facts.position
        self.state = state
    }

    /// The facts as one value.
    var facts: TaskFacts {
        TaskFacts(
            taskID: taskID, batchID: batchID, inspectorID: inspectorID, locationID: locationID, gtin: gtin,
            mode: mode, allocatedAt: allocatedAt, position: position)
    }
}

/// Tasks by id: a bounded in-memory working set over the `task` table (which the batch fold
/// writes: facts and state in one row).
///
/// A task allocated in this run is in memory until its row is written, so a miss is one
/// primary-key read. The set is trimmed only by ``trim()``, which the runner calls after a
/// flush: records carry the folds' unwritten state until then.
public final class TaskDirectory {
    private var cache: [String: TaskRecord] = [:]
    /// The working set before it was last trimmed: recent tasks found here move back into ``cache``.
    private var previous: [String: TaskRecord] = [:]
    private let capacity: Int
    private let select: Statement
    /// Folds ask about the same task one after the other: the last answer is kept.
    private var last: TaskRecord?

    /// The run's writes, settled before a read (not the context: it holds this directory).
    private let writes: WriteQueue

    init(_ db: Database, context: FoldContext) throws {
        self.capacity = context.workingSetLimit
        self.writes = context.writes
        select = try db.makeStatement(
            sql: """
                SELECT batch, inspector, location, gtin, mode, allocated_at, position, collection, skip_reason,
                  inspection, phase, verdicts, passed, warning, failure, unable, photos, updated_at
                FROM task WHERE task = ?
                """)
    }

    /// The facts of `taskID`, from memory or the table; nil for a task never allocated.
    public func facts(_ taskID: String) throws -> TaskFacts? {
        try record(taskID)?.facts
    }

    /// The record of `taskID` (facts and fold state): the hot path of the folds.
    func record(_ taskID: String) throws -> TaskRecord? {
        if let last, last.taskID == taskID { return last }
        if let record = cache[taskID] {
            last = record
            return record
        }
        if let record = previous.removeValue(forKey: taskID) { return remember(record) }
        guard let row = try writes.read({ _ in try Row.fetchOne(select, arguments: [taskID]) }) else { return nil }
        let facts = TaskFacts(
            taskID: taskID, batchID: row[0], inspectorID: row[1], locationID: row[2], gtin: row[3], mode: row[4],
            allocatedAt: row[5], position: UInt64(row[6] as Int64))
        let progress = TaskProgress(
            collection: try row.decode(atIndex: 7), skipReason: try row.decode(atIndex: 8),
            inspection: try row.decode(atIndex: 9), phase: try row.decode(atIndex: 10))
        let state = TaskStateRow(
            progress: progress, verdicts: row[11], passed: row[12], warning: row[13], failure: row[14],
            unable: row[15], photos: row[16], updatedAt: row[17])
        return remember(TaskRecord(facts, state: state, isFresh: false))
    }

    /// A task allocated now: in memory until the batch fold writes its row.
    @discardableResult
    func allocate(_ facts: TaskFacts, state: TaskStateRow) -> TaskRecord {
        remember(TaskRecord(facts, state: state, isFresh: true))
    }

    /// True when a fold that started after `checkpoint` has nothing stored for `record`: it was
    /// allocated in this run after the checkpoint, and has been in memory ever since.
    func isNew(_ record: TaskRecord, since checkpoint: UInt64) -> Bool {
        record.isFresh && record.position > checkpoint
    }

    /// After every fold has flushed: when the working set outgrew its capacity, it becomes
    /// ``previous`` and a new one starts (at most about twice the capacity is held).
    func trim() {
        guard cache.count >= capacity else { return }
        swap(&cache, &previous)
        cache.removeAll(keepingCapacity: true)
        last = nil
    }

    private func remember(_ record: TaskRecord) -> TaskRecord {
        cache[record.taskID] = record
        last = record
        return record
    }
}
