import Crypto
import Foundation
import Inspection
import PostgresLog

/// A content-addressed store of inspection photos: `<blobs>/<first two hex>/<sha256>`.
///
/// Uploads are independent of the log: an image may arrive before or after its `PhotoAttached`
/// event (seed 6.2); an attached hash without a file is *pending*. Files are written to a temporary
/// name and renamed, so a crash never leaves a partial blob under a valid name. When the log is
/// in PostgreSQL the blobs are in its database instead (``init(database:policy:)``), so every
/// server sharing the log sees every photo.
public struct PhotoStore: Sendable {
    /// The directory holding the blobs.
    public let directory: URL
    /// Size and type limits.
    public let policy: PhotoPolicy
    /// The database's blob table, when the log is in PostgreSQL (then `directory` is unused).
    let database: PostgresBlobStore?
    /// `directory` as a path.
    private let root: String

    /// The blob table of a PostgreSQL log's database.
    public init(database: PostgresBlobStore, directory: URL, policy: PhotoPolicy) {
        self.database = database
        self.directory = directory
        self.policy = policy
        root = directory.path
    }

    /// A store in `directory` (created when missing).
    public init(directory: URL, policy: PhotoPolicy) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw AuditServiceError(
                .dataDirectory, "cannot create the photo store (check permissions)",
                context: ["directory": directory.path])
        }
        self.directory = directory
        self.policy = policy
        self.database = nil
        root = directory.path
    }

    /// What the store knows about a hash.
    public enum Status: String, Sendable, Hashable {
        /// The image is stored.
        case stored
        /// Not uploaded (yet).
        case pending
    }

    /// A stored upload.
    public struct Receipt: Sendable, Hashable {
        /// Lower-case hex SHA-256 of the bytes.
        public var sha256: String
        /// Size in bytes.
        public var byteCount: Int
        /// The content type detected from the bytes.
        public var contentType: String
        /// False when the same image was already stored.
        public var isNew: Bool
    }

    /// Stores `bytes`; `contentType` must match what the bytes are and `sha256`, when given, their hash.
    ///
    /// With `durable` (the default) the file is synced before this returns, so an acknowledged
    /// upload survives a crash; bulk loaders may pass false and accept re-uploading after a crash.
    /// - Throws: ``AuditServiceError`` `.photoRejected` for an empty or oversized image, an
    ///   unaccepted or mismatched type, or a hash mismatch; `.dataDirectory` when writing fails.
    public func store(
        _ bytes: [UInt8], contentType: String, sha256 expected: String? = nil, durable: Bool = true
    ) throws -> Receipt {
        guard !bytes.isEmpty else {
            throw AuditServiceError(.photoRejected, "the photo is empty (upload the image bytes)")
        }
        guard bytes.count <= policy.maxBytes else {
            throw AuditServiceError(
                .photoRejected, "the photo is \(bytes.count) bytes; the limit is \(policy.maxBytes) (resize it)",
                context: ["bytes": "\(bytes.count)"])
        }
        guard policy.contentTypes.contains(contentType) else {
            throw AuditServiceError(
                .photoRejected,
                "content type '\(contentType)' is not accepted (use \(policy.contentTypes.sorted().joined(separator: ", ")))"
            )
        }
        let detected = Self.detectType(bytes)
        guard detected == contentType else {
            throw AuditServiceError(
                .photoRejected,
                "the bytes are \(detected ?? "not a JPEG, PNG or HEIC image"), not \(contentType) (send the right type)"
            )
        }
        let hash = Self.sha256(bytes)
        if let expected, expected != hash {
            throw AuditServiceError(
                .photoRejected, "the bytes hash to \(hash), not \(expected) (the upload was damaged; send it again)")
        }
        if let database {
            do {
                let isNew = try database.write(sha256: hash, bytes: bytes)
                return Receipt(sha256: hash, byteCount: bytes.count, contentType: contentType, isNew: isNew)
            } catch {
                throw AuditServiceError(
                    .storeUnavailable, "cannot store the photo: \(error) (send it again in a moment)")
            }
        }
        // Paths as plain strings and calls to the C library: building URLs and asking
        // FileManager cost more than writing a small photo.
        let folder = root + "/" + hash.prefix(2)
        let target = folder + "/" + hash
        if access(target, F_OK) == 0 {
            return Receipt(sha256: hash, byteCount: bytes.count, contentType: contentType, isNew: false)
        }
        do {
            let newFolder = mkdir(folder, 0o755) == 0
            guard newFolder || errno == EEXIST else { throw CocoaError(.fileWriteNoPermission) }
            let temporary = folder + "/." + hash + "." + UUID().uuidString + ".tmp"
            try Self.writeFile(bytes, to: temporary, durable: durable)
            if rename(temporary, target) != 0 {
                unlink(temporary)
                throw CocoaError(.fileWriteUnknown)
            }
            // The new name is durable only once its directory is synced (a crash could otherwise
            // lose an acknowledged photo whose bytes were synced under the temporary name).
            if durable {
                try Self.syncDirectory(folder)
                if newFolder { try Self.syncDirectory(root) }
            }
        } catch {
            throw AuditServiceError(
                .dataDirectory, "cannot write the photo (check disk space)", context: ["file": target])
        }
        return Receipt(sha256: hash, byteCount: bytes.count, contentType: contentType, isNew: true)
    }

    private static func syncDirectory(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 { throw CocoaError(.fileWriteUnknown) }
    }

    private static func writeFile(_ bytes: [UInt8], to path: String, durable: Bool) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return write(descriptor, base + written, bytes.count - written)
            }
            guard result > 0 else { throw CocoaError(.fileWriteOutOfSpace) }
            written += result
        }
        if durable, fsync(descriptor) != 0 { throw CocoaError(.fileWriteUnknown) }
    }

    /// Whether the image with this hash is stored.
    public func contains(sha256: String) -> Bool {
        if let database { return Self.isHash(sha256) && database.contains(sha256: sha256) }
        return access(path(for: sha256), F_OK) == 0
    }

    /// Stored or pending.
    public func status(sha256: String) -> Status { contains(sha256: sha256) ? .stored : .pending }

    /// The stored bytes, or nil when pending.
    public func read(sha256: String) -> [UInt8]? {
        if let database { return Self.isHash(sha256) ? database.read(sha256: sha256) : nil }
        guard Self.isHash(sha256), let data = FileManager.default.contents(atPath: path(for: sha256)) else {
            return nil
        }
        return [UInt8](data)
    }

    /// The blob's file: `<root>/<first two hex>/<sha256>`.
    func path(for sha256: String) -> String {
        let safe = Self.isHash(sha256) ? sha256 : "invalid"
        return root + "/" + safe.prefix(2) + "/" + safe
    }

    static func isHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Lower-case hex SHA-256.
    public static func sha256(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 15)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The image type the bytes start with, if JPEG, PNG or HEIC.
    static func detectType(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if ["heic", "heix", "mif1", "msf1", "heim", "heis"].contains(brand) { return "image/heic" }
        }
        return nil
    }
}
