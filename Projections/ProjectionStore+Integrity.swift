import Foundation
import GRDB

extension ProjectionStore {
    /// What is wrong with the database file at `url` when SQLite finds it damaged (not a database,
    /// or its quick check fails); nil when it reads as a sound database, or cannot be read for
    /// another reason (a missing file, permissions), which is not damage.
    public static func damage(at url: URL) -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            let answer = try queue.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
            return answer == ["ok"] ? nil : "quick_check: " + answer.prefix(3).joined(separator: "; ")
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "damaged")"
        } catch {
            return nil
        }
    }
}
