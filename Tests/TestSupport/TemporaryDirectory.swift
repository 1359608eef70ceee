import Foundation

/// A fresh, empty directory under the system's temporary directory, removed when the last
/// reference goes away. Every test that writes files takes one.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates `<tmp>/<prefix>-<UUID>`.
    public init(prefix: String = "itemaudit-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the directory.
    public func appending(_ component: String) -> URL { url.appendingPathComponent(component) }
}

/// Runs `body` with a fresh temporary directory, removed when it returns or throws.
public func withTemporaryDirectory<T>(prefix: String = "itemaudit-test", _ body: (URL) async throws -> T)
    async throws -> T
{
    let url = try makeScratchDirectory(prefix: prefix)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

/// A new empty directory that the caller removes (for fixtures shared across tests).
public func makeScratchDirectory(prefix: String = "itemaudit-test") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
