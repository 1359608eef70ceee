import Foundation
import Proofs

/// The log's Ed25519 signing key, kept in a file (mode 0600) as Go's note package writes one
/// (``NoteSigner``): `<data>/keys/log.key` unless `serve --log-key FILE` or `--log-key` names
/// another. Made by a writing command the first time it needs one; readers only read it.
struct LogKeyFile {
    /// The default key file's name inside `<data>/keys/`.
    static let defaultName = "log.key"

    let url: URL

    /// The key file `explicit`, or the data directory's default.
    init(directory: DataDirectory, explicit: String?) {
        url = explicit.map { URL(fileURLWithPath: $0) } ?? directory.keys.appendingPathComponent(Self.defaultName)
    }

    /// The key, or nil when the file does not exist.
    /// - Throws: ``AuditServiceError`` `.dataDirectory` naming the file when it cannot be read as a key.
    func load() throws -> NoteSigner? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try NoteSigner(text: String(decoding: data, as: UTF8.self))
        } catch {
            throw AuditServiceError(
                .dataDirectory, "\(url.path) is not a log key: \(error.message) (restore it from a backup)")
        }
    }

    /// The key, made with the name `origin` when the file does not exist yet.
    /// - Returns: the key and whether it was made now.
    /// - Throws: ``AuditServiceError`` `.invalidRequest` when there is no key and no origin to
    ///   name one, or the key's name is not `origin`; `.dataDirectory` when it cannot be written.
    func loadOrCreate(origin: String?) throws -> (NoteSigner, created: Bool) {
        try requireUsable(origin: origin)
        if let key = try load() {
            if let origin, origin != key.verifier.name {
                throw AuditServiceError(
                    .invalidRequest,
                    "the log key \(url.path) is named '\(key.verifier.name)', not '\(origin)' (drop --log-origin, or pass --log-key with another key file)"
                )
            }
            return (key, false)
        }
        guard let origin else {
            throw AuditServiceError(
                .invalidRequest,
                "there is no log key yet at \(url.path): pass --log-origin (or --public-url) to name the log, e.g. --log-origin audit.example.com/log"
            )
        }
        let key: NoteSigner
        do { key = try NoteSigner.generate(name: origin) } catch {
            throw AuditServiceError(.invalidRequest, "--log-origin '\(origin)' cannot name a key: \(error.message)")
        }
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            guard
                FileManager.default.createFile(
                    atPath: url.path, contents: Data((key.text + "\n").utf8), attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteNoPermission) }
        } catch {
            throw AuditServiceError(
                .dataDirectory, "cannot create the log key file (check permissions)", context: ["file": url.path])
        }
        return (key, true)
    }

    /// Throws what ``loadOrCreate(origin:)`` would before making anything: no key and no origin,
    /// or a key under another name.
    func requireUsable(origin: String?) throws {
        if let key = try load() {
            if let origin, origin != key.verifier.name {
                throw AuditServiceError(
                    .invalidRequest,
                    "the log key \(url.path) is named '\(key.verifier.name)', not '\(origin)' (drop --log-origin, or pass --log-key with another key file)"
                )
            }
            return
        }
        guard origin != nil else {
            throw AuditServiceError(
                .invalidRequest,
                "there is no log key yet at \(url.path): pass --log-origin (or --public-url) to name the log, e.g. --log-origin audit.example.com/log"
            )
        }
    }
}
