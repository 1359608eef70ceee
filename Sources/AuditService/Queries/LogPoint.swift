import AuditLog
import Chronology
import Foundation

/// A point in the log a reader names: a position, or a time (the last event recorded at or before it).
public enum LogPoint: Sendable, Hashable {
    /// A log position.
    case position(UInt64)
    /// A recorded-at time.
    case time(Timestamp)

    /// Parses an integer position or an ISO 8601 date or date-time; nil for anything else.
    public init?(_ text: String) {
        if let position = UInt64(text) {
            self = .position(position)
        } else if let time = Timestamp(iso8601: text) {
            self = .time(time)
        } else {
            return nil
        }
    }
}

extension AuditQueries {
    /// The last log position at or before `point`.
    ///
    /// A point in the future — a position the log has not reached, or a time after now — is
    /// refused (``AuditServiceError/Code/invalidRequest``): the log cannot say what it will hold
    /// then, and an answer "as of" it would change with the next append. A past time after the
    /// last event is fine: the log held exactly that. `option` names the point in the message.
    public func position(of point: LogPoint, option: String, now: Timestamp = Timestamp(Date())) throws -> UInt64 {
        let end = log.lastPosition
        let endTime = end == 0 ? "the log is empty" : "the log ends at position \(end)" + lastRecorded()
        switch point {
        case .position(let position):
            guard position <= end else {
                throw AuditServiceError(
                    .invalidRequest,
                    "\(option) \(position) is beyond the end of the log: \(endTime) (give a position up to \(end), or omit \(option))"
                )
            }
            return position
        case .time(let time):
            guard time <= now else {
                throw AuditServiceError(
                    .invalidRequest,
                    "\(option) \(time.iso8601) is in the future: \(endTime) (give a time up to now, or omit \(option))")
            }
            do {
                return try log.lastPosition(asOfRecordedAt: time)
            } catch {
                throw AuditServiceError(.log, "cannot read the event log as of \(time.iso8601): \(error)")
            }
        }
    }

    private func lastRecorded() -> String {
        var recorded: Timestamp?
        try? log.forEachRecordView(from: log.lastPosition, upTo: log.lastPosition) { recorded = $0.recordedAt }
        return recorded.map { ", recorded \($0.iso8601)" } ?? ""
    }
}
