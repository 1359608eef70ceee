import AuditLog
import Chronology
import Foundation
import Logging

/// Opens a data directory's projection database caught up with its log, whatever state the
/// database is in: the log is the only truth, the database only a cache of it.
///
/// - A data directory that cannot be written (an auditor's read-only copy, a backup) gets its
///   projections built in a temporary directory (starting from a copy of its database when it has
///   one), removed when the process exits; nothing in the data directory changes.
/// - A damaged database is set aside beside itself as `projections.sqlite.corrupt-<time>` (never
///   deleted) and rebuilt from the log; `note` is told so in one line.
public enum ProjectionDatabase {
    /// The projection database at `place`, caught up with `log`.
    /// - Throws: ``ProjectionError`` when the projections cannot be built at all.
    public static func caughtUp(
        _ place: ProjectionHome, log: any EventStore, logger: Logger, note: (String) -> Void
    ) throws -> ProjectionStore {
        let home = place.database
        let writable = isWritable(place)
        let url = writable ? home : try temporaryCopy(of: home)
        let runner = ProjectionRunner(logger: logger)
        do {
            let store = try ProjectionStore.open(at: url)
            try runner.catchUp(store, log: log)
            return store
        } catch {
            guard let damage = ProjectionStore.damage(at: url) else { throw error }
            if writable {
                let kept = try setAside(url)
                note(
                    "the projection database \(url.path) was damaged (\(damage)); it was set aside as "
                        + "\(kept.lastPathComponent) and rebuilt from the log")
            } else {
                ProjectionStore.remove(at: url)
                note(
                    "the projection database \(home.path) is damaged (\(damage)); the projections were rebuilt "
                        + "from the log in a temporary place (the data directory is read-only)")
            }
            let store = try ProjectionStore.open(at: url)
            try runner.catchUp(store, log: log)
            return store
        }
    }

    /// Sets the database at `place` aside when it is damaged (before a full rebuild, which
    /// would otherwise fail on it), telling `note` in one line; does nothing to a sound one.
    /// - Throws: ``ProjectionError`` when a damaged database cannot be moved.
    public static func setAsideIfDamaged(_ place: ProjectionHome, note: (String) -> Void) throws {
        let url = place.database
        guard let damage = ProjectionStore.damage(at: url) else { return }
        let kept = try setAside(url)
        note(
            "the projection database \(url.path) was damaged (\(damage)); it was set aside as \(kept.lastPathComponent)"
        )
    }

    /// Whether the projection database can be written where it is.
    public static func isWritable(_ place: ProjectionHome) -> Bool {
        let files = FileManager.default
        let database = place.database
        guard files.isWritableFile(atPath: place.dataDirectory.path) else { return false }
        return ["", "-wal", "-shm"].allSatisfy {
            !files.fileExists(atPath: database.path + $0) || files.isWritableFile(atPath: database.path + $0)
        }
    }

    /// Renames the database and its `-wal` and `-shm` files to `<name>.corrupt-<UTC time>…`.
    static func setAside(_ url: URL) throws -> URL {
        let stamp = Timestamp(Date()).iso8601.filter { $0.isNumber || $0 == "T" }
        let kept = URL(fileURLWithPath: url.path + ".corrupt-" + stamp)
        do {
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
                try FileManager.default.moveItem(atPath: url.path + suffix, toPath: kept.path + suffix)
            }
        } catch {
            throw ProjectionError(
                .database,
                "the projection database \(url.path) is damaged and cannot be set aside: \(error) "
                    + "(move it away yourself; the next command rebuilds it from the log)",
                context: ["file": url.path])
        }
        return kept
    }

    /// Where the projections of a read-only data directory are built: a copy of its database
    /// (when it has one) in a temporary directory removed at exit, made once per process and
    /// reused (caught up again) by later reports.
    static func temporaryCopy(of database: URL) throws -> URL {
        if let made = TemporaryDirectories.copy(of: database.path) { return URL(fileURLWithPath: made) }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("itemaudit-projections-\(ProcessInfo.processInfo.processIdentifier)-\(UUID())")
        let copy = directory.appendingPathComponent(database.lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ProjectionError(
                .database,
                "the data directory is read-only and no temporary directory can be made at \(directory.path): "
                    + "\(error) (set TMPDIR to a writable directory)")
        }
        TemporaryDirectories.removeAtExit(directory, copyOf: database.path, at: copy.path)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: database.path + suffix) {
            // A copy that fails only costs time: the projections are then built from the log alone.
            try? FileManager.default.copyItem(atPath: database.path + suffix, toPath: copy.path + suffix)
        }
        return copy
    }
}
