import AuditLog
import Foundation

extension AuditQueries {
    /// Checks every frame's CRC32C and the whole hash chain of the log in `directory`.
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
