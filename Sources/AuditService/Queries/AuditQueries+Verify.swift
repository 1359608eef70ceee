import AuditLog
import Chronology
import Foundation
import PostgresLog

extension AuditQueries {
    /// Checks every frame's CRC32C and the whole hash chain of the log in `directory`. Changes
    /// nothing (`itemaudit verify` is a reader); a server notes its own verifications with
    /// ``verifyLog(now:)``.
    ///
    /// Needs no lock: a writer may keep running while this reads. A damaged log is a report with
    /// a ``VerificationReport/problem``, not an error.
    /// - Throws: ``AuditServiceError`` `.dataDirectory` when there is no log, `.log` when it cannot be read.
    public static func verify(_ directory: DataDirectory) throws -> VerificationReport {
        guard directory.hasLog else {
            throw AuditServiceError(
                .dataDirectory, "no event log at \(directory.log.path) (pass --data with the data directory)",
                context: ["directory": directory.path])
        }
        do {
            return try EventLog.verify(directory: directory.log)
        } catch {
            throw AuditServiceError(.log, "cannot read the event log: \(error) (check the data directory)")
        }
    }

    /// Checks the log these queries read (the data directory's, or a PostgreSQL log) like
    /// ``verify(_:)`` and notes the result in the data directory (``LastVerification``), where the
    /// dashboard reads it: what the server does at start, every few hours and for `GET /v1/verify`.
    /// - Throws: ``AuditServiceError`` `.log` or `.storeUnavailable` when the log cannot be read.
    public func verifyLog(now: Timestamp = Timestamp(Date())) throws -> LastVerification {
        guard let shared = log as? PostgresEventStore else {
            let note = LastVerification(verifiedAt: now, report: try Self.verify(directory))
            note.write(directory)
            return note
        }
        let report: VerificationReport
        do {
            report = try shared.verify(progress: nil)
        } catch {
            throw AuditServiceError.store(error, "cannot read the event log")
        }
        let note = LastVerification(verifiedAt: now, report: report)
        note.write(directory)
        return note
    }

    /// The last verification noted in the data directory, nil when the log was never verified
    /// here (or the note cannot be read).
    public func lastVerification() -> LastVerification? {
        LastVerification.read(directory)
    }

    /// Checks the log at `location`: the data directory's (as ``verify(_:)``), or every row of a
    /// PostgreSQL log against its chain (a changed or deleted row is a ``VerificationReport/problem``).
    /// - Throws: ``AuditServiceError`` `.storeUnavailable` when the database cannot be reached.
    public static func verify(_ directory: DataDirectory, location: LogStoreLocation) throws -> VerificationReport {
        guard location.isPostgres else { return try verify(directory) }
        let store = try location.openPostgres(clock: SystemClock(), logger: quietLogger)
        defer { try? store.close() }
        do {
            return try store.verify(progress: nil)
        } catch {
            throw AuditServiceError.store(error, "cannot read the event log at \(location)")
        }
    }
}
