import AuditLog
import Chronology
import Foundation
import Inspection

extension AuditTrail {
    /// Like ``timeline(_:in:upTo:)``, but read through the log's stream index instead of the
    /// whole log: the allocations stream (which names the subject's batches and tasks), then only
    /// the streams that can hold events about the subject — the product's own stream, and the
    /// streams of the batches and ad-hoc tasks that allocated it. The same ``Matcher`` runs over
    /// those records in log order, so the entries are the same as a full scan's.
    ///
    /// An inspector's timeline may hold events of any stream (receptions, registrations by them),
    /// so it is read from the whole log.
    public static func indexedTimeline(_ subject: HistorySubject, in log: any EventStore, upTo end: UInt64? = nil)
        async throws -> [TimelineEntry]
    {
        if case .inspector = subject { return try timeline(subject, in: log, upTo: end) }
        let end = end ?? log.lastPosition
        var streams: Set<String> = []
        if case .gtin(let gtin) = subject { streams.insert(InspectionStreams.product(gtin)) }
        if case .batch(let id) = subject { streams.insert(InspectionStreams.batch(id)) }
        var types = EventTypeInterner()
        var candidates: [Candidate] = []
        // The allocations about the subject name it (its GTIN, batch or task id) in their
        // payloads: the others are skipped in place, without copying or decoding them.
        var allocations = Matcher(subject: subject)
        let needle = Array(subject.id.utf8)
        try log.forEachRecordView(inStream: InspectionStreams.allocations, fromVersion: 1) { view in
            guard view.position <= end, view.withPayload({ Self.contains($0, needle) }),
                let type = types.index(of: view)
            else { return }
            let candidate = try Candidate(view, type: type, types: types)
            guard allocations.matches(candidate.event, actor: candidate.actor) else { return }
            candidates.append(candidate)
            switch candidate.event {
            case .batchAllocated(let event): streams.insert(InspectionStreams.batch(event.batchID))
            case .adHocTaskAllocated(let event): streams.insert(InspectionStreams.adHocTask(event.taskID))
            default: break
            }
        }
        // The matcher only ever learns tasks, so the tasks it knows after every allocation are
        // all a task event can be about: the rest of a batch's stream (most of it) is skipped
        // after reading each event's task id alone.
        let tasks = allocations.tasks
        for stream in streams.sorted() {
            try log.forEachRecordView(inStream: stream, fromVersion: 1) { view in
                guard view.position <= end, let type = types.index(of: view) else { return }
                if let kind = types.kinds[type].taskEventKind,
                    let taskID = view.withPayload({
                        TaskEvent.taskID(kind, schemaVersion: Int(view.schemaVersion), payload: $0)
                    }),
                    !tasks.contains(taskID)
                {
                    return
                }
                candidates.append(try Candidate(view, type: type, types: types))
            }
        }
        // The streams interleave in the log: the matcher decides in log order, as a full scan's.
        candidates.sort { $0.position < $1.position }
        var matcher = Matcher(subject: subject)
        return candidates.compactMap { candidate in
            guard matcher.matches(candidate.event, actor: candidate.actor) else { return nil }
            return TimelineEntry(
                position: candidate.position, recordedAt: candidate.recordedAt, occurredAt: candidate.occurredAt,
                actor: candidate.actor, eventType: types.names[candidate.type], summary: candidate.event.summary)
        }
    }

    /// An event that may be about the subject: decoded, with what its timeline entry needs.
    private struct Candidate {
        var position: UInt64
        var recordedAt: Timestamp
        var occurredAt: Timestamp
        var actor: String
        var type: Int
        var event: InspectionEvent

        init(_ view: EventRecordView, type: Int, types: EventTypeInterner) throws {
            position = view.position
            recordedAt = view.recordedAt
            occurredAt = view.occurredAt
            actor = view.actor
            self.type = type
            event = try ProjectionRunner.decode(view, types.kinds[type])
        }
    }

    /// Whether `bytes` holds `needle` (an empty needle is everywhere).
    static func contains(_ bytes: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard let base = bytes.baseAddress, bytes.count >= needle.count else { return false }
        return needle.withUnsafeBytes { wanted in
            guard let wanted = wanted.baseAddress else { return true }
            let first = Int32(needle[0])
            let last = base + (bytes.count - needle.count)
            var next = base
            // memchr finds each candidate first byte at memory speed; memcmp checks the rest.
            while next <= last, let found = memchr(next, first, last - next + 1) {
                if memcmp(found, wanted, needle.count) == 0 { return true }
                next = UnsafeRawPointer(found) + 1
            }
            return false
        }
    }
}
