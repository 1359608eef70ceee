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
}
