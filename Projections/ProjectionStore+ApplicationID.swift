import GRDB

extension ProjectionStore {
    /// Stamps the database header with `id` (SQLite's `application_id`) and checkpoints, so the
    /// stamp is in the main file at once and a later run can tell what made the file by reading
    /// its first 100 bytes.
    public func stampApplicationID(_ id: Int32) throws {
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA application_id = \(id)")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }
}
