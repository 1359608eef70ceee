import Foundation

/// The layout of a data directory: the one place that knows where the log, the photos and the
/// projection database live inside it.
///
/// ```
/// <url>/log/                 the event log (segments, checkpoint, index runs, LOCK)
/// <url>/blobs/               photos, content-addressed by SHA-256
/// <url>/projections.sqlite   the read models, rebuilt from the log whenever needed
/// <url>/keys/                keys kept beside the log: the app-secret key (mode 0600)
/// <url>/last-verification.json  when the server last verified the log, and what it found
/// ```
public struct DataDirectory: Sendable, Hashable {
    /// The name of the log's folder inside a data directory.
    public static let logName = "log"
    /// The name of the photo store's folder inside a data directory.
    public static let blobsName = "blobs"
    /// The name of the projection database inside a data directory.
    public static let projectionsName = "projections.sqlite"
    /// The name of the keys' folder inside a data directory.
    public static let keysName = "keys"
    /// The name of the last verification's note inside a data directory.
    public static let lastVerificationName = "last-verification.json"

    /// The data directory itself.
    public let url: URL

    /// The data directory at `url` (nothing is created or checked).
    public init(_ url: URL) { self.url = url }

    /// The data directory at `path` (nothing is created or checked).
    public init(path: String) { self.url = URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of the data directory, for messages.
    public var path: String { url.path }

    /// The log's folder.
    public var log: URL { url.appendingPathComponent(Self.logName, isDirectory: true) }

    /// The photo store's folder.
    public var blobs: URL { url.appendingPathComponent(Self.blobsName, isDirectory: true) }

    /// The projection database.
    public var projections: URL { url.appendingPathComponent(Self.projectionsName) }

    /// The keys' folder: keys the server keeps beside the log (never inside it).
    public var keys: URL { url.appendingPathComponent(Self.keysName, isDirectory: true) }

    /// The note of the last full verification of the log (``LastVerification``).
    public var lastVerification: URL { url.appendingPathComponent(Self.lastVerificationName) }

    /// Whether the log's folder exists (a data directory without it has never been written).
    public var hasLog: Bool { FileManager.default.fileExists(atPath: log.path) }

    /// Whether the log's folder holds segment files.
    public var holdsEvents: Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: log.path) else { return false }
        return names.contains { $0.hasSuffix(".log") || $0.hasPrefix("segment") }
    }
}
