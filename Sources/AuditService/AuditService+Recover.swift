import AuditLog
import Foundation
import Logging
import Projections

/// Bytes cut off the log and kept beside its segments (see `docs/log-recovery.md`).
public typealias QuarantinedFile = AuditLog.QuarantinedFile
/// What opening the log found and cut.
public typealias LogOpenReport = AuditLog.RecoveryReport

/// What `itemaudit recover` found in a data directory's log, and what it cut.
public struct LogRecoveryOutcome: Sendable {
    /// The log as it was before anything was done: its first damage, if any, and quarantines.
    public var before: VerificationReport
    /// What the cut did (nil when nothing was cut: no damage, or not asked to cut).
    public var cut: LogOpenReport?
    /// The log after the cut (nil when nothing was cut).
    public var after: VerificationReport?
}

extension AuditService {
    /// A note for people about a tail the log cut on its own when it was opened (a write torn
    /// by a crash, never acknowledged), or nil when opening cut nothing.
    public nonisolated var recoveryNote: String? { log.openingNote }

    /// Checks the log of `dataDirectory` and, when `cutTail` is set and the log is damaged, cuts
    /// it at the first damage: the damaged frame and everything after it move to quarantine files
    /// beside the segments (nothing is deleted), and the projection database is removed so the
    /// next command rebuilds it from the shortened log.
    ///
    /// This is the explicit consent the writer asks for when acknowledged events are damaged:
    /// positions after the cut are given again to new events.
    /// - Throws: ``AuditServiceError`` `.logBusy` when a writer holds the log, `.log` when it
    ///   cannot be read or cut.
    public static func recoverLog(_ data: DataDirectory, cutTail: Bool, logger: Logger) throws -> LogRecoveryOutcome {
        let dataDirectory = data.url
        let directory = data.log
        guard FileManager.default.fileExists(atPath: directory.path) else {
            throw AuditServiceError(
                .dataDirectory, "no event log at \(directory.path) (pass --data with the data directory)",
                context: ["directory": dataDirectory.path])
        }
        let before: VerificationReport
        do {
            before = try EventLog.verify(directory: directory)
        } catch {
            throw AuditServiceError(.log, "cannot read the event log: \(error)", context: ["directory": directory.path])
        }
        var outcome = LogRecoveryOutcome(before: before)
        guard cutTail, before.problem != nil else { return outcome }
        var configuration = EventLog.Configuration()
        configuration.cutDamagedTail = true
        let log: EventLog
        do {
            log = try EventLog.open(directory: directory, configuration: configuration, logger: logger)
        } catch let error as EventLogError where error.code == .lockHeld {
            throw AuditServiceError(
                .logBusy,
                "another process is writing the log in \(dataDirectory.path) (stop it, then run recover again)",
                context: ["directory": dataDirectory.path])
        } catch {
            throw AuditServiceError(.log, "cannot cut the event log: \(error)", context: ["directory": directory.path])
        }
        outcome.cut = log.recovery
        do {
            try log.close()
            outcome.after = try EventLog.verify(directory: directory)
        } catch {
            throw AuditServiceError(
                .log, "cannot close the event log: \(error)", context: ["directory": directory.path])
        }
        // The reports folded events that are no longer in the log: rebuilt from it on next use.
        ProjectionStore.remove(at: data.projections)
        return outcome
    }
}
