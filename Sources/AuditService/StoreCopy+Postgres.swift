import AuditLog
import Foundation
import Logging
import PostgresLog

extension StoreCopy {
    /// True when `text` names a PostgreSQL log (`postgres://…`) rather than a data directory.
    public static func isStoreURL(_ text: String) -> Bool { PostgresStoreURL.looksLikeURL(text) }

    /// Copies between any two stores: each side a data directory's log or a PostgreSQL URL (the
    /// destination must hold no events; a PostgreSQL one gets its schema first). Both heads are
    /// checked equal before this returns. Photos are not copied.
    /// - Throws: ``AuditServiceError`` `.dataDirectory` when a directory side has no log or the
    ///   destination holds events, `.storeUnavailable` when a database cannot be reached, `.log`
    ///   when a store fails or the heads differ.
    public static func copy(
        from source: String, to destination: String, logger: Logger = AuditQueries.quietLogger,
        progress: ((UInt64) -> Void)? = nil
    ) async throws -> Report {
        func directory(_ path: String) -> DataDirectory {
            DataDirectory(URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL)
        }
        guard isStoreURL(source) || isStoreURL(destination) else {
            return try await copy(
                from: directory(source), to: directory(destination), logger: logger, progress: progress)
        }
        guard source != destination else {
            throw AuditServiceError(.dataDirectory, "--from and --to name the same store (copy to another one)")
        }
        let reader: any EventStore
        if isStoreURL(source) {
            reader = try LogStoreLocation(url: source).openPostgres(clock: SystemClock(), logger: logger)
        } else {
            let from = directory(source)
            guard from.hasLog else {
                throw AuditServiceError(
                    .dataDirectory, "no event log in \(from.path) (check --from)", context: ["directory": from.path])
            }
            do {
                reader = try EventLog.open(directory: from.log, configuration: .init(readOnly: true), logger: logger)
            } catch {
                throw AuditServiceError(.log, "cannot open the event log in \(from.path): \(error)")
            }
        }
        defer { try? reader.close() }
        let writer: any EventStore
        if isStoreURL(destination) {
            writer = try LogStoreLocation(url: destination).openPostgres(clock: SystemClock(), logger: logger)
        } else {
            let to = directory(destination)
            do {
                try FileManager.default.createDirectory(at: to.url, withIntermediateDirectories: true)
                writer = try EventLog.open(directory: to.log, logger: logger)
            } catch {
                throw AuditServiceError(
                    .dataDirectory, "cannot open the event log in \(to.path): \(error) (check --to)",
                    context: ["directory": to.path])
            }
        }
        let copied: EventStoreCopy.Report
        do {
            copied = try await EventStoreCopy.copy(from: reader, to: writer, progress: progress)
            try writer.close()
        } catch {
            try? writer.close()
            throw AuditServiceError.store(
                error, "the copy from \(reader.location) to \(writer.location) failed",
                context: ["from": reader.location, "to": writer.location])
        }
        return Report(from: reader.location, to: writer.location, events: copied.events, headHash: copied.headHash)
    }
}
