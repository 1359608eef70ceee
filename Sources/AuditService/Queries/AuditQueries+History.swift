import AuditLog
import Projections

extension AuditQueries {
    /// Every event about `subject` up to `end` (the last position when nil), in log order.
    ///
    /// Read straight from the log, so it is exact as of any position: for a product, batch or
    /// task only the streams that can concern it, found through the log's stream index; for an
    /// inspector the whole log.
    /// - Throws: ``AuditServiceError`` `.corruptEvent` for a payload that cannot be decoded.
    public func history(_ subject: HistorySubject, upTo end: UInt64? = nil) async throws -> [TimelineEntry] {
        do {
            return try await AuditTrail.indexedTimeline(subject, in: log, upTo: end)
        } catch let error as ProjectionError {
            throw AuditServiceError(.corruptEvent, error.message)
        }
    }
}
