import AuditLog
import Chronology
import Projections

extension AuditQueries {
    /// Every event about `subject` up to `end` (the last position when nil), in log order; with
    /// `from`/`to`, only those that occurred in `[from, to)`.
    ///
    /// Read straight from the log, so it is exact as of any position: for a product, batch or
    /// task only the streams that can concern it, found through the log's stream index; for an
    /// inspector the whole log.
    /// - Throws: ``AuditServiceError`` `.corruptEvent` for a payload that cannot be decoded.
    public func history(
        _ subject: HistorySubject, upTo end: UInt64? = nil, from: Timestamp? = nil, to: Timestamp? = nil
    )
        async throws -> [TimelineEntry]
    {
        do {
            return try await AuditTrail.indexedTimeline(subject, in: log, upTo: end).filter { entry in
                (from.map { entry.occurredAt >= $0 } ?? true) && (to.map { entry.occurredAt < $0 } ?? true)
            }
        } catch let error as ProjectionError {
            throw AuditServiceError(.corruptEvent, error.message)
        }
    }
}
