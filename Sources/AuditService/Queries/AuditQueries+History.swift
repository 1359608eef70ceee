import AuditLog
import Projections

extension AuditQueries {
    /// Every event about `subject` up to `end` (the last position when nil), in log order.
    ///
    /// Read straight from the log, so it is exact as of any position.
    /// - Throws: ``AuditServiceError`` `.corruptEvent` for a payload that cannot be decoded.
    public func history(_ subject: HistorySubject, upTo end: UInt64? = nil) throws -> [TimelineEntry] {
        do {
            return try AuditTrail.timeline(subject, in: log, upTo: end)
        } catch let error as ProjectionError {
            throw AuditServiceError(.corruptEvent, error.message)
        }
    }
}
