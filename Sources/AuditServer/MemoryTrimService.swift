import AuditService
import NIOPosix
import ServiceLifecycle

/// Gives free heap pages back to the system every second (``AuditService/releaseFreeMemory()``).
///
/// Under many devices the server frees most of what it allocates (request buffers, parse trees,
/// answers) in between what it keeps, so glibc's arenas keep whole pages that hold nothing.
/// Giving them back lowers the server's peak memory under load, and costs no CPU per command that
/// `bench serve` can tell. The trim walks every arena under its lock, so it runs on the blocking
/// pool, not an event loop.
struct MemoryTrimService: Service {
    /// How often the arenas are trimmed.
    var interval: Duration = .seconds(1)

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    try await Task.sleep(for: interval)
                    _ = try await NIOThreadPool.singleton.runIfActive { AuditService.releaseFreeMemory() }
                }
            }
        } catch is CancellationError {
            // Graceful shutdown cancelled the sleep: nothing to finish.
        }
    }
}
