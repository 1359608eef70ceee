import Foundation
import Projections

extension AuditQueries {
    /// How many log positions the projection database has not folded yet: the log's last
    /// position minus the lowest projection checkpoint (the whole log when there is no database).
    ///
    /// Reads the checkpoints without catching up, so it tells what the next report would fold
    /// first (the server's `/metrics` serves it as a gauge).
    /// - Throws: ``AuditServiceError`` `.projections` when the database cannot be read.
    public func projectionLag() throws -> UInt64 {
        let end = log.lastPosition
        let url = directory.projections
        guard FileManager.default.fileExists(atPath: url.path) else { return end }
        do {
            let store = try ProjectionStore.open(at: url)
            let folded = try store.database.read { db -> Int64? in
                guard try db.tableExists("projection_checkpoint") else { return nil }
                return try Int64.fetchOne(db, sql: "SELECT min(position) FROM projection_checkpoint")
            }
            let position = UInt64(max(0, folded ?? 0))
            return end > position ? end - position : 0
        } catch {
            throw AuditServiceError(.projections, "cannot read the projection checkpoints: \(error)")
        }
    }
}
