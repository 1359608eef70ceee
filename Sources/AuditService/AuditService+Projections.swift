import AuditLog
import Foundation
import Logging
import Projections

// The follower lives in Projections; the service tells it of every position the log reaches.
extension ProjectionFollower: LogObserver {}

extension AuditService {
    /// Opens `<data>/projections.sqlite` (the one ``queries`` read), brings it up to date
    /// (rebuilding projections whose version changed: on a background thread, so commands are
    /// not held up meanwhile) and keeps it caught up after every append.
    /// - Throws: ``AuditServiceError`` `.projections` when the database cannot be opened or folded.
    public func followProjections() async throws -> ProjectionFollower {
        let queries = queries
        let store = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try queries.projections() }) }
        }
        let follower = ProjectionFollower(
            store: store, live: liveProjections, home: DataDirectory(dataDirectory).projectionHome, log: log,
            logger: logger)
        addObserver(follower)
        // Appends made while the database was being opened: folded now.
        follower.logAdvanced(to: log.lastPosition)
        return follower
    }
}

extension DataDirectory {
    /// The projection database's place, as the Projections module's catch-up takes it.
    var projectionHome: ProjectionHome { ProjectionHome(dataDirectory: url, database: projections) }
}
