import AuditLog

extension AuditService {
    /// Appends through the log (one durable write for the whole list).
    func append(_ appends: [StreamAppend]) async throws -> [AppendResult] {
        try await log.append(contentsOf: appends)
    }
}
