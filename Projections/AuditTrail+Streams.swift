import AuditLog
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
        var records: [EventRecord] = []
        var allocations: [EventRecord] = []
        try log.forEachRecord(inStream: InspectionStreams.allocations, fromVersion: 1) {
            if $0.position <= end { allocations.append($0) }
        }
        // An allocation about the subject names it (its GTIN, batch or task id) in its payload:
        // the ones that do not are skipped without decoding their task lists.
        let needle = Array(subject.id.utf8)
        for record in allocations {
            guard record.withPayload({ Self.contains($0, needle) }) else { continue }
            records.append(record)
            guard InspectionEvent.registeredType(named: record.eventType) != nil else { continue }
            switch try decode(record) {
            case .batchAllocated(let event):
                let concerned = event.tasks.contains { task in
                    switch subject {
                    case .gtin(let gtin): task.gtin == gtin
                    case .task(let id): task.taskID == id
                    case .batch, .inspector: false
                    }
                }
                if concerned { streams.insert(InspectionStreams.batch(event.batchID)) }
            case .adHocTaskAllocated(let event):
                let concerned =
                    switch subject {
                    case .gtin(let gtin): event.gtin == gtin
                    case .task(let id): event.taskID == id
                    case .batch, .inspector: false
                    }
                if concerned { streams.insert(InspectionStreams.adHocTask(event.taskID)) }
            default:
                break
            }
        }
        for stream in streams.sorted() where stream != InspectionStreams.allocations {
            try log.forEachRecord(inStream: stream, fromVersion: 1) {
                if $0.position <= end { records.append($0) }
            }
        }
        records.sort { $0.position < $1.position }
        var matcher = Matcher(subject: subject)
        var entries: [TimelineEntry] = []
        var paths = AttributePathNumbers()
        var taskID = ""
        for record in records {
            // Types this build does not know (written by other modules) are not about the subject.
            guard let type = InspectionEvent.registeredType(named: record.eventType) else { continue }
            // A task event is about a product, batch or task only through a task the matcher has
            // learned: its task id is read without decoding the rest (most of a batch's stream).
            if let kind = type.taskEventKind {
                let read = record.withPayload { payload in
                    TaskEvent.decode(
                        kind, schemaVersion: Int(record.schemaVersion), payload: payload, paths: &paths, taskID: &taskID
                    )
                }
                if read != nil, !matcher.tasks.contains(taskID) { continue }
            }
            let event = try decode(record)
            guard matcher.matches(event, actor: record.actor) else { continue }
            entries.append(
                TimelineEntry(
                    position: record.position, recordedAt: record.recordedAt.microsecondsSinceEpoch,
                    occurredAt: record.occurredAt.microsecondsSinceEpoch, actor: record.actor,
                    eventType: record.eventType, summary: event.summary))
        }
        return entries
    }

    /// Whether `bytes` holds `needle` (an empty needle is everywhere).
    static func contains(_ bytes: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard let base = bytes.baseAddress, bytes.count >= needle.count else { return false }
        return needle.withUnsafeBytes { wanted in
            guard let wanted = wanted.baseAddress else { return true }
            let first = needle[0]
            var offset = 0
            while offset + needle.count <= bytes.count {
                if bytes[offset] == first, memcmp(base + offset, wanted, needle.count) == 0 { return true }
                offset += 1
            }
            return false
        }
    }

    private static func decode(_ record: EventRecord) throws -> InspectionEvent {
        do {
            return try record.withPayload { bytes throws(PayloadDecodingError) in
                try InspectionEvent.decode(
                    eventType: record.eventType, schemaVersion: Int(record.schemaVersion), payload: bytes)
            }
        } catch {
            throw ProjectionError(
                .undecodable,
                "the payload at position \(record.position) (\(record.eventType) v\(record.schemaVersion)) cannot be decoded: \(error) (run itemaudit verify, or upgrade itemaudit)",
                context: ["position": String(record.position), "eventType": record.eventType])
        }
    }
}
