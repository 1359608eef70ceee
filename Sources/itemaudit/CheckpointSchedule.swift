import AuditService
import Foundation
import Logging

/// `serve`'s signed checkpoints: every few seconds while the log grows, the log's tree is
/// extended by the records appended since (``LogTreeKeeper``, kept open between checkpoints over
/// the server's own store) and a checkpoint of it is signed and kept, so an auditor can always
/// fetch a recent checkpoint and any earlier one can be proven consistent with it.
struct CheckpointSchedule {
    let directory: DataDirectory
    /// The server's service: the tree is kept over its log store, whose appends are seen as they land.
    let service: AuditService
    let identity: AuditProofs.LogIdentity
    let seconds: Int
    let logger: Logger

    /// Starts the schedule, or returns nil when checkpoints are off or nothing names the log key.
    func start() -> Task<Void, Never>? {
        guard seconds > 0, identity.origin != nil || AuditProofs.hasLogKey(directory, keyFile: identity.keyFile) else {
            return nil
        }
        let (service, identity, seconds, logger) = (service, identity, seconds, logger)
        return Task.detached(priority: .utility) {
            var keeper: LogTreeKeeper?
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(seconds))
                if Task.isCancelled { break }
                do {
                    if keeper == nil { keeper = try LogTreeKeeper(service, identity: identity) }
                    if let made = try await keeper?.signIfGrown() {
                        logger.info("signed checkpoint", metadata: ["size": "\(made.size)", "file": "\(made.file)"])
                    }
                } catch {
                    // Opened again next time: the tree is read back from the tiles and the log.
                    keeper = nil
                    logger.warning(
                        "cannot sign a checkpoint",
                        metadata: ["error": "\(AuditServiceError.describing(error)?.message ?? "\(error)")"])
                }
            }
        }
    }
}
