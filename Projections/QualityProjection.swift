import GRDB
import Inspection

/// Product quality history: per GTIN every finished inspection and every rule check, with
/// verdict counts and the attributes that failed or warned. Coverage counts the same
/// inspections (by product type, mode, location and inspector).
///
/// Tables `quality_inspection` and `quality_rule_check` (one row per event, keyed by log
/// position) and `quality_open_task` (verdicts of inspections still in progress).
public struct QualityProjection: Projection {
    public init() {}
    public var name: String { "quality" }
    /// 3: one index of the inspections for coverage instead of four (the old ones go with the
    /// table when upgrading).
    public var version: Int { 3 }
    public var eventTypes: Set<String>? {
        ["AttributeVerdictRecorded", "InspectionFinished", "InspectionSkipped", "RuleCheckRecorded"]
    }
    public var dependencies: [String] { ["batches"] }
    public var tables: [String] { ["quality_inspection", "quality_rule_check", "quality_open_task"] }
    public var migrations: [String] {
        [
            """
            CREATE TABLE quality_inspection (
              position INTEGER PRIMARY KEY, gtin TEXT NOT NULL, task TEXT NOT NULL, batch TEXT NOT NULL,
              inspector TEXT NOT NULL, location TEXT NOT NULL, mode INTEGER NOT NULL, occurred_at INTEGER NOT NULL,
              recorded_at INTEGER NOT NULL, result INTEGER NOT NULL, passed INTEGER NOT NULL,
              warning INTEGER NOT NULL, failure INTEGER NOT NULL, unable INTEGER NOT NULL, failing TEXT NOT NULL)
            """,
            // The dashboard's failures by attribute read only the inspections with a failing
            // attribute, from this narrow index (a plain index: a database from before it gets
            // it at its next catch-up, without refolding).
            "CREATE INDEX quality_inspection_failing ON quality_inspection (occurred_at, failing) WHERE failing <> ''",
            """
            CREATE TABLE quality_rule_check (
              position INTEGER PRIMARY KEY, gtin TEXT NOT NULL, datasheet TEXT NOT NULL, rule_sets TEXT NOT NULL,
              occurred_at INTEGER NOT NULL, passed INTEGER NOT NULL, warning INTEGER NOT NULL,
              failure INTEGER NOT NULL, unable INTEGER NOT NULL, failing TEXT NOT NULL)
            """,
            "CREATE INDEX quality_rule_check_gtin ON quality_rule_check (gtin)",
            "CREATE TABLE quality_open_task (task TEXT PRIMARY KEY, verdicts TEXT NOT NULL) WITHOUT ROWID",
        ]
    }

    public func makeFold(_ db: Database, context: FoldContext) throws -> any ProjectionFold {
        try QualityFold(db, context: context)
    }
}

/// The verdicts of an inspection in progress, in the order recorded (a later verdict on the same
/// path replaces the earlier one when they are read).
struct OpenVerdicts: Sendable, Hashable {
    var paths: [String] = []
    var verdicts: [Int] = []

    mutating func record(_ path: String, _ verdict: Int) {
        if paths.isEmpty {
            // An inspection records a dozen verdicts or so: one allocation each instead of five.
            paths.reserveCapacity(16)
            verdicts.reserveCapacity(16)
        }
        paths.append(path)
        verdicts.append(verdict)
    }

    /// The latest verdict per path, in the order each path was first recorded.
    var latest: [(String, Int)] {
        var index: [String: Int] = [:]
        var result: [(String, Int)] = []
        for (path, verdict) in zip(paths, verdicts) {
            if let at = index[path] {
                result[at].1 = verdict
            } else {
                index[path] = result.count
                result.append((path, verdict))
            }
        }
        return result
    }

    /// `path=3|path=2`: the attributes that failed (3) or warned (2).
    var failing: String {
        // Fast path: no failing path was recorded twice, so no dictionary is needed.
        var parts: [String] = []
        for index in verdicts.indices where verdicts[index] >= 2 {
            let path = paths[index]
            if paths.indices.contains(where: { $0 != index && paths[$0] == path }) {
                return latest.filter { $0.1 >= 2 }.map { "\($0.0)=\($0.1)" }.joined(separator: "|")
            }
            parts.append("\(path)=\(verdicts[index])")
        }
        return parts.joined(separator: "|")
    }

    var encoded: String { latest.map { "\($0.0)=\($0.1)" }.joined(separator: "|") }

    init() {}

    init(encoded: String) {
        for part in encoded.split(separator: "|") {
            guard let equals = part.lastIndex(of: "="), let verdict = Int(part[part.index(after: equals)...])
            else { continue }
            record(String(part[..<equals]), verdict)
        }
    }
}

final class QualityFold: ProjectionFold {
    private let context: FoldContext
    /// Open verdicts live on the directory's task records; these changed since the last flush.
    private var dirty: [TaskRecord] = []
    private let checkpoint: UInt64
    private let directory: TaskDirectory?
    private let insertInspection: WriteStatement
    private let insertRuleCheck: WriteStatement
    private let upsertOpen: WriteStatement
    private let deleteOpen: WriteStatement
    private let selectOpen: Statement

    init(_ db: Database, context: FoldContext) throws {
        let checkpoint = context.checkpoint
        self.context = context
        directory = context.directory
        self.checkpoint = checkpoint
        insertInspection = try context.writeStatement(
            db,
            """
            INSERT INTO quality_inspection (position, gtin, task, batch, inspector, location, mode, occurred_at,
              recorded_at, result, passed, warning, failure, unable, failing)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertRuleCheck = try context.writeStatement(
            db,
            """
            INSERT INTO quality_rule_check (position, gtin, datasheet, rule_sets, occurred_at, passed, warning,
              failure, unable, failing)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        upsertOpen = try context.writeStatement(
            db, "INSERT OR REPLACE INTO quality_open_task (task, verdicts) VALUES (?, ?)")
        deleteOpen = try context.writeStatement(
            db, "DELETE FROM quality_open_task WHERE task = ?")
        selectOpen = try db.makeStatement(sql: "SELECT verdicts FROM quality_open_task WHERE task = ?")
    }

    func apply(_ event: TaskEvent, _ envelope: EventEnvelope, _ record: TaskRecord) throws {
        switch event.kind {
        case .attributeVerdictRecorded:
            try loadVerdicts(record)
            if record.verdictsClosed {
                // A reinspection: it reuses the row the closed one still has.
                record.verdictsClosed = false
            }
            if record.verdicts == nil { record.verdicts = OpenVerdicts() }
            record.verdicts?.record(context.paths[event.path], Int(event.code))
            markDirty(record)
        case .inspectionFinished:
            try loadVerdicts(record)
            try insertInspection.execute(
                .integer(Int64(envelope.position)), .text(record.gtin), .text(record.taskID), .text(record.batchID),
                .text(record.inspectorID), .text(record.locationID), .int(record.mode), .integer(envelope.occurredAt),
                .integer(envelope.recordedAt), .int(Int(event.code)), .int(Int(event.passed)),
                .int(Int(event.warning)), .int(Int(event.failure)), .int(Int(event.unable)),
                .text(record.verdicts?.failing ?? ""))
            close(record)
        case .inspectionSkipped:
            try loadVerdicts(record)
            close(record)
        default:
            break
        }
    }

    func apply(_ event: InspectionEvent, _ envelope: EventEnvelope) throws {
        switch event {
        case .ruleCheckRecorded(let event):
            let failing = event.findings.filter { $0.verdict.rawValue >= 2 }
                .map { "\($0.path)=\($0.verdict.rawValue)" }.joined(separator: "|")
            try insertRuleCheck.execute(
                .integer(Int64(envelope.position)), .text(event.gtin), .text(event.datasheetID),
                .text(event.ruleSets.joined(separator: ",")), .integer(envelope.occurredAt), .int(event.passedCount),
                .int(event.warningCount), .int(event.failureCount), .int(event.unableCount), .text(failing))
        default:
            break
        }
    }

    /// Reads the task's open verdicts from the table the first time it is met (not for a task
    /// allocated since this fold started: it has none stored).
    private func loadVerdicts(_ record: TaskRecord) throws {
        guard !record.verdictsLoaded else { return }
        record.verdictsLoaded = true
        guard let directory, !directory.isNew(record, since: checkpoint) else { return }
        record.verdicts = try context.read { _ in try String.fetchOne(selectOpen, arguments: [record.taskID]) }
            .map(OpenVerdicts.init(encoded:))
        record.verdictsStored = record.verdicts != nil
    }

    /// The inspection ended: its verdicts go (the stored row is deleted at the next flush).
    private func close(_ record: TaskRecord) {
        guard record.verdicts != nil else { return }
        record.verdicts = nil
        if record.verdictsStored {
            record.verdictsClosed = true
            markDirty(record)
        }
    }

    private func markDirty(_ record: TaskRecord) {
        guard !record.verdictsDirty else { return }
        record.verdictsDirty = true
        dirty.append(record)
    }

    func flush(at position: UInt64) throws {
        for record in dirty {
            record.verdictsDirty = false
            if record.verdictsClosed {
                try deleteOpen.execute(.text(record.taskID))
                record.verdictsClosed = false
                record.verdictsStored = false
            } else if let verdicts = record.verdicts {
                try upsertOpen.execute(.text(record.taskID), .text(verdicts.encoded))
                record.verdictsStored = true
            }
        }
        dirty.removeAll(keepingCapacity: true)
    }
}
