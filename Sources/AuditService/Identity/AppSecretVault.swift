import Crypto
import Foundation

/// Seals device-app secrets so the log can hold them without handing them to every reader.
///
/// The server must know each app's secret to check its HMACs, so a one-way hash will not do.
/// The secret is sealed with AES-256-GCM under a key kept in `<data>/keys/app-secrets.key`
/// (created with mode 0600 on first use); the `AppRegistered` event holds only the sealed form.
/// A copy of the log, an export or a replica therefore cannot sign requests; whoever can read
/// the key file (the server's own account) can. Secrets and the key never reach a log line.
public struct AppSecretVault: Sendable {
    /// The key file.
    public let keyFile: URL

    /// A vault whose key lives in `<dataDirectory>/keys/app-secrets.key`.
    public init(dataDirectory: URL) {
        keyFile = DataDirectory(dataDirectory).keys.appendingPathComponent("app-secrets.key")
    }

    /// Seals `secret`: base64 of nonce, ciphertext and tag. Creates the key when missing.
    /// - Throws: ``AuditServiceError`` `.dataDirectory` when the key cannot be created or read.
    public func seal(_ secret: [UInt8]) throws -> String {
        let key = try loadKey(create: true)
        do {
            guard let combined = try AES.GCM.seal(secret, using: key).combined else {
                throw AuditServiceError(.dataDirectory, "cannot seal the app secret")
            }
            return combined.base64EncodedString()
        } catch let error as AuditServiceError {
            throw error
        } catch {
            throw AuditServiceError(.dataDirectory, "cannot seal the app secret: \(error)")
        }
    }

    /// The secret sealed by ``seal(_:)``.
    /// - Throws: ``AuditServiceError`` `.dataDirectory` when the key is missing or the sealed form
    ///   does not open with it (the key file was replaced: register the app again).
    public func open(_ sealed: String) throws -> [UInt8] {
        let key = try loadKey(create: false)
        guard let data = Data(base64Encoded: sealed), let box = try? AES.GCM.SealedBox(combined: data),
            let secret = try? AES.GCM.open(box, using: key)
        else {
            throw AuditServiceError(
                .dataDirectory,
                "an app secret does not open with \(keyFile.path) (the key file was replaced; add the app again)")
        }
        return [UInt8](secret)
    }

    private func loadKey(create: Bool) throws -> SymmetricKey {
        if let data = FileManager.default.contents(atPath: keyFile.path) {
            guard data.count == 32 else {
                throw AuditServiceError(
                    .dataDirectory, "\(keyFile.path) is not a 32-byte key (restore it from a backup)")
            }
            return SymmetricKey(data: data)
        }
        guard create else {
            throw AuditServiceError(
                .dataDirectory, "no key file \(keyFile.path) (restore it from a backup, or add the apps again)")
        }
        let key = SymmetricKey(size: .bits256)
        let bytes = key.withUnsafeBytes { Data($0) }
        do {
            try FileManager.default.createDirectory(
                at: keyFile.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            guard
                FileManager.default.createFile(
                    atPath: keyFile.path, contents: bytes, attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteNoPermission) }
        } catch {
            throw AuditServiceError(
                .dataDirectory, "cannot create the key file (check permissions)", context: ["file": keyFile.path])
        }
        return key
    }
}

/// App secrets already opened, by their sealed form: every signed request needs its app's
/// secret, and opening one reads the key file and decrypts: once per app here, not once per request.
/// Keyed by the sealed text, so an app registered again gets its new secret; revocation is
/// checked before the cache is asked.
///
/// `@unchecked Sendable`: the dictionary is only touched under `lock`.
final class OpenedSecrets: @unchecked Sendable {
    private let lock = NSLock()
    private var secrets: [String: [UInt8]] = [:]

    /// The opened secret of `sealed`, opening it with `vault` the first time (made only then: it
    /// builds file paths, which costs more than the whole lookup).
    func secret(_ sealed: String, vault: @autoclosure () -> AppSecretVault) throws -> [UInt8] {
        if let known = lock.withLock({ secrets[sealed] }) { return known }
        let secret = try vault().open(sealed)
        lock.withLock { secrets[sealed] = secret }
        return secret
    }
}
