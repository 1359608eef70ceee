import AuditLog
import Projections

extension AuditQueries {
    /// Every event about `subject` up to `end` (the last position when nil), in log order; with
    /// `from`/`to` (µs since the epoch), only those that occurred in `[from, to)`.
    ///
    /// Read straight from the log, so it is exact as of any position: for a product, batch or
    /// task only the streams that can concern it, found through the log's stream index; for an
    /// inspector the whole log.
    /// - Throws: ``AuditServiceError`` `.corruptEvent` for a payload that cannot be decoded.
    public func history(_ subject: HistorySubject, upTo end: UInt64? = nil, from: Int64? = nil, to: Int64? = nil)
        async throws -> [TimelineEntry]
    {
        do {
            return try await AuditTrail.indexedTimeline(subject, in: log, upTo: end).filter { entry in
                entry.occurredAt >= (from ?? .min) && entry.occurredAt < (to ?? .max)
            }
        } catch let error as ProjectionError {
            throw AuditServiceError(.corruptEvent, error.message)
        }
    }
}
