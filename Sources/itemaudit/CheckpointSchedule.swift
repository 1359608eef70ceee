import AuditService
import Foundation
import Logging

/// `serve`'s signed checkpoints: every few seconds while the log grows, the log's tree is signed
/// and kept (``AuditProofs/makeCheckpointIfGrown(_:location:identity:)``), so an auditor can
/// always fetch a recent checkpoint and any earlier one can be proven consistent with it.
struct CheckpointSchedule {
    let directory: DataDirectory
    let location: LogStoreLocation
    let identity: AuditProofs.LogIdentity
    let seconds: Int
    let logger: Logger

    /// Starts the schedule, or returns nil when checkpoints are off or nothing names the log key.
    func start() -> Task<Void, Never>? {
        guard seconds > 0, identity.origin != nil || AuditProofs.hasLogKey(directory, keyFile: identity.keyFile) else {
            return nil
        }
        let (directory, location, identity, seconds, logger) = (directory, location, identity, seconds, logger)
        return Task.detached(priority: .utility) {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(seconds))
                if Task.isCancelled { break }
                do {
                    if let made = try AuditProofs.makeCheckpointIfGrown(
                        directory, location: location, identity: identity)
                    {
                        logger.info("signed checkpoint", metadata: ["size": "\(made.size)", "file": "\(made.file)"])
                    }
                } catch {
                    logger.warning(
                        "cannot sign a checkpoint",
                        metadata: ["error": "\(AuditServiceError.describing(error)?.message ?? "\(error)")"])
                }
            }
        }
    }
}
