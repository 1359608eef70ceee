import AuditLog
import Foundation
import Logging
import PostgresLog

extension AuditService {
    /// Opens the data directory with its log at `location`: the file log in `<data>/log/`, or a
    /// PostgreSQL database shared with other servers. With PostgreSQL, the service follows the
    /// appends the other servers make (`LISTEN/NOTIFY` plus a poll, see
    /// ``PostgresLog/PostgresLogSubscription``): it folds them and tells its observers, so this
    /// server's projections catch up within a bounded lag; photos go to the database's blob table.
    /// - Throws: ``AuditServiceError`` `.storeUnavailable` when the database cannot be reached
    ///   (the message names the URL without its password), `.log` for a bad URL or a schema newer
    ///   than this binary, and what ``open(dataDirectory:store:configuration:clock:logger:)`` throws.
    public static func open(
        dataDirectory: URL, location: LogStoreLocation, configuration: Configuration = Configuration(),
        clock: any LogClock = SystemClock(), logger: Logger
    ) async throws -> AuditService {
        guard location.isPostgres else {
            return try await open(
                dataDirectory: dataDirectory, configuration: configuration, clock: clock, logger: logger)
        }
        let store = try location.openPostgres(clock: clock, logger: logger)
        let service: AuditService
        do {
            service = try await open(
                dataDirectory: dataDirectory, store: store, configuration: configuration, clock: clock, logger: logger)
        } catch {
            try? store.close()
            throw error
        }
        await service.followSharedStore(store)
        return service
    }

    /// Folds what other servers append to the shared store, as the subscription reports it.
    func followSharedStore(_ store: PostgresEventStore) {
        let subscription = PostgresLogSubscription(store: store)
        sharedStoreFollower = Task { [weak self] in
            defer { subscription.stop() }
            for await position in subscription.positions {
                guard let self else { return }
                await self.foldShared(upTo: position)
            }
        }
    }

    /// Folds the store up to `position` when this service has not yet, and tells the observers.
    private func foldShared(upTo position: UInt64) async {
        guard position > appliedPosition else { return }
        do {
            try catchUp()
            notifyObservers()
        } catch {
            logger.warning(
                "could not fold the shared log's new events (the next notification tries again)",
                metadata: ["error": "\(error)"])
        }
    }
}

extension AuditServiceError {
    /// An append or read that failed in the store: `.storeUnavailable` when the database could
    /// not be reached (retry later), `.log` otherwise.
    static func store(_ error: any Error, _ message: String, context: [String: String] = [:]) -> AuditServiceError {
        if let error = error as? AuditServiceError { return error }
        if let error = error as? PostgresLogError, error.code == .unreachable || error.code == .commitUnknown {
            return AuditServiceError(
                .storeUnavailable, "\(message): \(error.message)", context: context.merging(error.context) { $1 })
        }
        return AuditServiceError(.log, "\(message): \(error)", context: context)
    }
}
