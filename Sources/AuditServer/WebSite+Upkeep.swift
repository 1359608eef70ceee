import AuditService
import Logging
import NIOPosix
import WebPages
import ServiceLifecycle

/// What the report pages need done in the background while the server runs:
///
/// - the templates parsed at start, so the first page drawn is as quick as the rest;
/// - the projection database opened and caught up once at start (a rebuild after an upgrade runs
///   here, not in the first visitor's request), then folded after every append, so a page reads
///   it as it stands instead of opening and catching it up per request;
/// - the log verified at start and every ``verifyInterval``: each result is kept in
///   `<data>/last-verification.json` (``LastVerification``), which the dashboard shows.
struct ReportUpkeepService: Service {
    let server: ServerState
    /// How often the whole log is verified again.
    var verifyInterval: Duration = .seconds(6 * 3600)

    func run() async throws {
        do {
            try ReportPages.prepare()
        } catch {
            server.logger.error("report templates do not parse", metadata: ["error": "\(error)"])
        }
        do {
            _ = try await server.service.followProjections()
        } catch {
            // The pages still work: each catches the database up itself.
            server.logger.error("projections could not be opened", metadata: ["error": "\(error)"])
        }
        do {
            try await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    await verifyOnce()
                    try await Task.sleep(for: verifyInterval)
                }
            }
        } catch is CancellationError {
            // Graceful shutdown: the sleep was cancelled; a verification only reads.
        }
    }

    /// Verifies the whole log once (on the blocking pool) and records the result.
    func verifyOnce() async {
        let queries = server.service.queries
        do {
            let note = try await NIOThreadPool.singleton.runIfActive { try queries.verifyLog() }
            if note.report.isIntact {
                server.logger.info(
                    "log verified",
                    // The head hash is left out: no log line carries a 64-digit hex value (tokens look alike).
                    metadata: ["events": "\(note.report.eventCount)", "position": "\(note.report.lastPosition)"])
            } else {
                server.logger.error("log verification found damage", metadata: ["result": "\(note.result)"])
            }
        } catch {
            server.logger.error("log verification failed", metadata: ["error": "\(error)"])
        }
    }
}
