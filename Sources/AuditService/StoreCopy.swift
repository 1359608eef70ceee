import AuditLog
import Foundation
import Logging

/// Copies a whole log from one store to another (`itemaudit store copy`): every record keeps its
/// position, stream version, times, actor, command id and fingerprint, so `verify` prints the
/// same canonical head on both sides.
public enum StoreCopy {
    /// What a copy did.
    public struct Report: Sendable, Hashable, Codable {
        /// Where the log was read and where it was written, for messages.
        public var from: String
        public var to: String
        /// Events copied.
        public var events: UInt64
        /// The canonical head both stores now end with.
        public var headHash: String
    }

    /// Copies the log of the data directory `source` into the data directory `destination`,
    /// whose log must hold no events (it is created when missing). Photos are not copied.
    /// `progress` hears the last position copied after each write.
    /// - Throws: ``AuditServiceError`` `.dataDirectory` when the source has no log or the
    ///   destination already holds events, `.logBusy` when a writer holds the destination,
    ///   `.log` when a store fails or the heads differ after the copy.
    public static func copy(
        from source: DataDirectory, to destination: DataDirectory, logger: Logger = AuditQueries.quietLogger,
        progress: ((UInt64) -> Void)? = nil
    ) async throws -> Report {
        guard source.hasLog else {
            throw AuditServiceError(
                .dataDirectory, "no event log in \(source.path) (check --from)", context: ["directory": source.path])
        }
        guard source.url.standardizedFileURL != destination.url.standardizedFileURL else {
            throw AuditServiceError(
                .dataDirectory, "--from and --to name the same data directory \(source.path) (copy to another one)")
        }
        if destination.holdsEvents {
            let existing = try? EventLog.open(
                directory: destination.log, configuration: .init(readOnly: true), logger: logger)
            if (existing?.lastPosition ?? 1) > 0 {
                throw AuditServiceError(
                    .dataDirectory,
                    "\(destination.path) already holds an event log (copy into an empty or new data directory)",
                    context: ["directory": destination.path])
            }
        }
        let reader: EventLog
        do {
            reader = try EventLog.open(directory: source.log, configuration: .init(readOnly: true), logger: logger)
        } catch {
            throw AuditServiceError(
                .log, "cannot open the event log in \(source.path): \(error)", context: ["directory": source.path])
        }
        let writer: EventLog
        do {
            try FileManager.default.createDirectory(at: destination.url, withIntermediateDirectories: true)
            writer = try EventLog.open(directory: destination.log, logger: logger)
        } catch let error as EventLogError where error.code == .lockHeld {
            throw AuditServiceError(
                .logBusy, "another process is writing the log in \(destination.path) (stop it, then copy again)",
                context: ["directory": destination.path])
        } catch {
            throw AuditServiceError(
                .dataDirectory,
                "cannot create the event log in \(destination.path): \(error) (check --to and its permissions)",
                context: ["directory": destination.path])
        }
        let copied: EventStoreCopy.Report
        do {
            copied = try await EventStoreCopy.copy(from: reader, to: writer, progress: progress)
            try writer.close()
        } catch {
            try? writer.close()
            throw AuditServiceError(
                .log, "the copy from \(source.path) to \(destination.path) failed: \(error)",
                context: ["from": source.path, "to": destination.path])
        }
        return Report(from: source.path, to: destination.path, events: copied.events, headHash: copied.headHash)
    }
}
