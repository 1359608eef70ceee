import AuditLog
import Chronology
import Inspection

/// What an auditor's timeline is about.
public enum HistorySubject: Sendable, Hashable {
    /// A product (GTIN-14): its registration, datasheets, rule checks, receptions and every task on it.
    case gtin(String)
    /// A batch: its allocation, transitions and every event of its tasks.
    case batch(String)
    /// A task: its allocation and every event on it, and its batch's closing events.
    case task(String)
    /// An inspector: their registration, their batches and tasks, and everything they did.
    case inspector(String)

    /// The GTIN or id.
    var id: String {
        switch self {
        case .gtin(let id), .batch(let id), .task(let id), .inspector(let id): id
        }
    }
}

/// One line of the auditor's timeline.
public struct TimelineEntry: Sendable, Hashable, Codable {
    /// Log position.
    public var position: UInt64
    /// Server time.
    public var recordedAt: Timestamp
    /// Device time.
    public var occurredAt: Timestamp
    /// Who caused it.
    public var actor: String
    /// The event type name.
    public var eventType: String
    /// A short human summary of the payload.
    public var summary: String
}

/// The auditor's timeline, read straight from the log (no projection needed, so it is exact as of
/// any position).
public enum AuditTrail {
    /// Every event about `subject` up to `end` (the last position when nil), in log order.
    /// - Throws: ``ProjectionError`` `.undecodable` for a damaged payload, or the log's errors.
    public static func timeline(_ subject: HistorySubject, in log: any EventStore, upTo end: UInt64? = nil) throws
        -> [TimelineEntry]
    {
        var matcher = Matcher(subject: subject)
        var entries: [TimelineEntry] = []
        var types = EventTypeInterner()
        try log.forEachRecordView(upTo: end) { record in
            guard let type = types.index(of: record) else { return }
            let event = try ProjectionRunner.decode(record, types.kinds[type])
            let actor = record.actor
            guard matcher.matches(event, actor: actor) else { return }
            entries.append(
                TimelineEntry(
                    position: record.position, recordedAt: record.recordedAt, occurredAt: record.occurredAt,
                    actor: actor,
                    eventType: types.names[type], summary: event.summary))
        }
        return entries
    }

    /// Decides whether an event is about the subject, learning the subject's batches and tasks
    /// from allocations as the log goes by.
    struct Matcher {
        let subject: HistorySubject
        var batches: Set<String> = []
        var tasks: Set<String> = []

        init(subject: HistorySubject) {
            self.subject = subject
            if case .batch(let id) = subject { batches.insert(id) }
            if case .task(let id) = subject { tasks.insert(id) }
        }

        mutating func matches(_ event: InspectionEvent, actor: String) -> Bool {
            switch event {
            case .batchAllocated(let event):
                var relevant = batches.contains(event.batchID)
                for task in event.tasks where tasks.contains(task.taskID) || isProduct(task.gtin) {
                    tasks.insert(task.taskID)
                    if case .task = subject { batches.insert(event.batchID) }
                    relevant = true
                }
                if case .inspector(let id) = subject, event.inspectorID == id { relevant = true }
                if relevant, case .batch = subject { for task in event.tasks { tasks.insert(task.taskID) } }
                if relevant, case .inspector = subject {
                    batches.insert(event.batchID)
                    for task in event.tasks { tasks.insert(task.taskID) }
                }
                return relevant
            case .adHocTaskAllocated(let event):
                if isProduct(event.gtin) || tasks.contains(event.taskID) || isInspector(event.inspectorID) {
                    tasks.insert(event.taskID)
                    return true
                }
                return false
            case .inspectorRegistered(let event): return isInspector(event.inspectorID)
            case .productRegistered(let event): return isProduct(event.gtin)
            case .datasheetImported(let event): return isProduct(event.gtin)
            case .ruleCheckRecorded(let event): return isProduct(event.gtin)
            case .productReceived(let event): return isProduct(event.gtin) || isInspector(event.receivedBy)
            case .replacementRequested(let event): return isProduct(event.gtin) || isInspector(event.requestedBy)
            case .locationRegistered: return false
            default:
                if let task = event.taskID { return tasks.contains(task) || isInspector(actor) }
                if let batch = event.batchID {
                    if case .gtin = subject { return false }
                    return batches.contains(batch) || isInspector(actor)
                }
                return isInspector(actor)
            }
        }

        private func isProduct(_ gtin: String) -> Bool {
            if case .gtin(let wanted) = subject { return gtin == wanted }
            return false
        }

        private func isInspector(_ id: String) -> Bool {
            if case .inspector(let wanted) = subject { return id == wanted }
            return false
        }
    }
}
