import Foundation
import Projections

/// The file `replay --out` builds: a new file, or one an earlier `replay --out` made, never
/// anything else.
///
/// An output database is stamped with ``applicationID`` in its SQLite header, so a later replay
/// replaces it without a question; a directory, a file something else made, and any path inside a
/// data directory are refused before anything is touched.
public struct ReplayOutput: Sendable {
    /// The `application_id` stamped in every output database: "IARP" (ItemAudit replay).
    public static let applicationID: Int32 = 0x4941_5250

    /// The output database, symbolic links resolved.
    public let url: URL

    /// Checks that `path` may receive a replay: it does not exist, or it is an earlier replay's
    /// output; it is not a directory, and neither it nor any folder above it is a data directory
    /// (`dataDirectory`, or any folder holding a log, a projection database or a demo marker).
    /// - Throws: ``AuditServiceError`` `.outputPath` naming the path and what to give instead;
    ///   nothing has been changed.
    public static func check(path: String, dataDirectory: URL) throws(AuditServiceError) -> ReplayOutput {
        let unchanged = "nothing was changed"
        guard !path.isEmpty else {
            throw AuditServiceError(
                .outputPath, "is empty (give the name of a new file, e.g. as-of.sqlite; \(unchanged))")
        }
        let files = FileManager.default
        let given = URL(fileURLWithPath: path).standardizedFileURL
        // A link could lead anywhere (into a data directory, to a file it names only later).
        if (try? files.attributesOfItem(atPath: given.path)[.type] as? FileAttributeType) == .typeSymbolicLink {
            throw AuditServiceError(
                .outputPath, "\(path) is a symbolic link (give the path of the file itself; \(unchanged))",
                context: ["file": given.path])
        }
        let url = given.resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        let exists = files.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if exists, isDirectory.boolValue {
            throw AuditServiceError(
                .outputPath, "\(path) is a directory (give the name of a new file inside it; \(unchanged))",
                context: ["file": url.path])
        }
        let data = dataDirectory.standardizedFileURL.resolvingSymlinksInPath()
        var folder = url.deletingLastPathComponent()
        while true {
            if folder.path == data.path || DataDirectoryProbe.isDataDirectory(folder) {
                throw AuditServiceError(
                    .outputPath,
                    "\(path) is inside the data directory \(folder.path) (write the replay outside it; \(unchanged))",
                    context: ["file": url.path])
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        if exists, !isReplayDatabase(url) {
            throw AuditServiceError(
                .outputPath,
                "\(path) exists and is not a database an earlier replay --out made "
                    + "(give a new file name, or remove the file yourself; \(unchanged))",
                context: ["file": url.path])
        }
        return ReplayOutput(url: url)
    }

    /// Whether `url` is a SQLite database stamped with ``applicationID``.
    public static func isReplayDatabase(_ url: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 100), header.count == 100 else { return false }
        let bytes = [UInt8](header)
        guard bytes[0..<16].elementsEqual(Array("SQLite format 3\0".utf8)) else { return false }
        let id = bytes[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Int32(bitPattern: id) == applicationID
    }

    /// Replaces an earlier output (with its `-wal` and `-shm` files) by a new, stamped, empty database.
    /// - Throws: ``ProjectionError`` `.database` when the file cannot be written.
    public func create() throws -> ProjectionStore {
        ProjectionStore.remove(at: url)
        let store = try ProjectionStore.open(at: url)
        do { try store.stampApplicationID(Self.applicationID) } catch {
            throw ProjectionError(
                .database, "cannot write \(url.path): \(error) (check the path and permissions)",
                context: ["file": url.path])
        }
        return store
    }
}
