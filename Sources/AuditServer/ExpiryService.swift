import AuditService
import Logging
import ServiceLifecycle

/// Expires batches past their validity on its own, every `expiryInterval`, releasing their
/// products without anyone sending a command (the `system` actor appends `BatchExpired`).
struct ExpiryService: Service {
    let server: ServerState

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    await runOnce()
                    try await Task.sleep(for: server.configuration.expiryInterval)
                }
            }
        } catch is CancellationError {
            // Graceful shutdown: the sleep was cancelled; nothing is half done.
        }
    }

    /// One round: expire what is due, log how many.
    func runOnce() async {
        do {
            let outcomes = try await server.service.expireDueBatches()
            let expired = outcomes.filter { $0.status == .accepted }.count
            if expired > 0 { server.logger.info("expired batches", metadata: ["count": "\(expired)"]) }
        } catch {
            server.logger.error("batch expiry failed", metadata: ["error": "\(error)"])
        }
    }
}
