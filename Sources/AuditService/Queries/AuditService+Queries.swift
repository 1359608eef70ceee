import Foundation

extension AuditService {
    /// The read-only façade over this service's own log: reports catch the projections up to the
    /// log's end before answering, so a reader sees every write acknowledged before it asked.
    /// Every copy reads the one projection database the service holds open.
    public nonisolated var queries: AuditQueries {
        AuditQueries(
            directory: DataDirectory(dataDirectory), log: log, logger: logger,
            note: { [logger] in logger.warning("\($0)") },
            live: liveProjections)
    }
}
