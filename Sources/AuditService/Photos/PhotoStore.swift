import Crypto
import Foundation
import Inspection
import PostgresLog

/// A content-addressed store of inspection photos, in pack files under `<blobs>/packs/`
/// (``PhotoPackFormat``), found by their SHA-256.
///
/// Uploads are independent of the log: an image may arrive before or after its `PhotoAttached`
/// event (seed 6.2); an attached hash without a stored image is *pending*. Stores waiting at the
/// same time are written and synced together (``PhotoPackWriter``). Photos an earlier version
/// stored one file each (`<blobs>/<first two hex>/<sha256>`) are still read. When the log is in
/// PostgreSQL the blobs are in its database instead (``init(database:directory:policy:)``), so
/// every server sharing the log sees every photo.
public struct PhotoStore: Sendable {
    /// The directory holding the blobs.
    public let directory: URL
    /// Size and type limits.
    public let policy: PhotoPolicy
    /// The database's blob table, when the log is in PostgreSQL (then `directory` is unused).
    let database: PostgresBlobStore?
    /// The pack files of `directory` (nil over PostgreSQL).
    let packs: PhotoPacks?

    /// The blob table of a PostgreSQL log's database.
    public init(database: PostgresBlobStore, directory: URL, policy: PhotoPolicy) {
        self.database = database
        self.directory = directory
        self.policy = policy
        packs = nil
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
        packs = PhotoPacks.shared(root: directory.path)
    }

    /// True when the photos are in a PostgreSQL database: storing blocks on its client, so a
    /// server calls ``store(_:contentType:sha256:durable:)`` from a thread pool.
    public var isInDatabase: Bool { database != nil }

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
    /// Blocks until the image is written; with `durable` (the default) until it is synced, so an
    /// acknowledged upload survives a crash. Bulk loaders may pass false and accept re-uploading
    /// after a crash.
    /// - Throws: ``AuditServiceError`` `.photoRejected` for an empty or oversized image, an
    ///   unaccepted or mismatched type, or a hash mismatch; `.dataDirectory` when writing fails.
    public func store(
        _ bytes: [UInt8], contentType: String, sha256 expected: String? = nil, durable: Bool = true
    ) throws -> Receipt {
        try check(bytes, contentType: contentType)
        guard let packs else { return try storeInDatabase(bytes, contentType: contentType, sha256: expected) }
        let waiter = Waiter()
        packs.writer.submit(
            PhotoPackWriter.Request(
                bytes: bytes, digest: Array(SHA256.hash(data: bytes)), expected: expected, contentType: contentType,
                durable: durable, complete: { waiter.finish($0) }))
        return try waiter.wait().get()
    }

    /// ``store(_:contentType:sha256:durable:)``, durable, without blocking a thread while the
    /// group is written (over PostgreSQL it blocks: see ``isInDatabase``).
    public func store(_ bytes: [UInt8], contentType: String, sha256 expected: String? = nil) async throws -> Receipt {
        try await store(bytes, contentType: contentType, sha256: expected, digest: nil)
    }

    /// ``store(_:contentType:sha256:)`` for bytes whose SHA-256 (32 bytes), when given, the caller
    /// has just computed itself (the server hashed the upload's body to check its signature;
    /// hashing it again was a cost on every photo).
    package func store(_ bytes: [UInt8], contentType: String, sha256 expected: String?, digest: [UInt8]?)
        async throws -> Receipt
    {
        try check(bytes, contentType: contentType)
        guard let packs else { return try storeInDatabase(bytes, contentType: contentType, sha256: expected) }
        let digest = digest ?? Array(SHA256.hash(data: bytes))
        let result = await withCheckedContinuation { continuation in
            packs.writer.submit(
                PhotoPackWriter.Request(
                    bytes: bytes, digest: digest, expected: expected, contentType: contentType, durable: true,
                    complete: { continuation.resume(returning: $0) }))
        }
        return try result.get()
    }

    /// Waits for what this process stores, and marks the packs cleanly closed.
    public func close() { packs?.closeWriter() }

    /// The checks that need no hash.
    private func check(_ bytes: [UInt8], contentType: String) throws(AuditServiceError) {
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
    }

    private func storeInDatabase(_ bytes: [UInt8], contentType: String, sha256 expected: String?) throws -> Receipt {
        let hash = Self.sha256(bytes)
        if let expected, expected != hash {
            throw AuditServiceError(
                .photoRejected, "the bytes hash to \(hash), not \(expected) (the upload was damaged; send it again)")
        }
        do {
            let isNew = try database?.write(sha256: hash, bytes: bytes) ?? false
            return Receipt(sha256: hash, byteCount: bytes.count, contentType: contentType, isNew: isNew)
        } catch {
            throw AuditServiceError(.storeUnavailable, "cannot store the photo: \(error) (send it again in a moment)")
        }
    }

    /// Whether the image with this hash is stored.
    public func contains(sha256: String) -> Bool {
        if let database { return Self.isHash(sha256) && database.contains(sha256: sha256) }
        guard let packs, let key = PhotoKey(hex: sha256) else { return false }
        return packs.index.contains(key, hex: sha256)
    }

    /// Stored or pending.
    public func status(sha256: String) -> Status { contains(sha256: sha256) ? .stored : .pending }

    /// The stored bytes, or nil when pending (or when what is stored no longer has this hash).
    public func read(sha256: String) -> [UInt8]? {
        if let database { return Self.isHash(sha256) ? database.read(sha256: sha256) : nil }
        guard let packs, let key = PhotoKey(hex: sha256) else { return nil }
        return packs.index.read(key, hex: sha256)
    }

    static func isHash(_ text: String) -> Bool { PhotoKey(hex: text) != nil }

    /// Lower-case hex SHA-256.
    public static func sha256(_ bytes: [UInt8]) -> String { hex(SHA256.hash(data: bytes)) }

    /// A digest as lower-case hex.
    static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in digest {
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

/// Where a blocking ``PhotoStore/store(_:contentType:sha256:durable:)`` waits for the writer.
private final class Waiter: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<PhotoStore.Receipt, AuditServiceError>?

    func finish(_ result: Result<PhotoStore.Receipt, AuditServiceError>) {
        condition.lock()
        self.result = result
        condition.signal()
        condition.unlock()
    }

    func wait() -> Result<PhotoStore.Receipt, AuditServiceError> {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}
