import Foundation

/// Recognises a data directory from what it holds.
public enum DataDirectoryProbe {
    /// The file whose presence marks a directory as one `demo` made (so a later demo may replace it).
    public static let demoMarkerName = ".itemaudit-demo"

    /// Whether `folder` holds an event log (`log/` with segments or a lock), a projection database
    /// or a demo marker: a place whose files only ItemAudit should write.
    public static func isDataDirectory(_ folder: URL) -> Bool {
        let files = FileManager.default
        if files.fileExists(atPath: DataDirectory(folder).projections.path)
            || files.fileExists(atPath: folder.appendingPathComponent(demoMarkerName).path)
        {
            return true
        }
        let log = folder.appendingPathComponent("log", isDirectory: true)
        let names = (try? files.contentsOfDirectory(atPath: log.path)) ?? []
        return names.contains { $0 == "LOCK" || ($0.hasPrefix("segment-") && $0.hasSuffix(".log")) }
    }

    /// Whether something other than a directory (a file, a device) is at `url`.
    public static func isFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
