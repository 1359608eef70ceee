import AuditLog
import Chronology
import Foundation
import Inspection
import PostgresLog
import Projections

/// A photo attached to an inspection task: where and when, and the image's hash, size and type.
public struct InspectionPhoto: Sendable, Hashable, Codable {
    /// The log position of its `PhotoAttached`.
    public var position: UInt64
    /// Lower-case hex SHA-256 of the image: its name in the blob store.
    public var sha256: String
    /// The image size in bytes.
    public var byteCount: Int
    /// `image/jpeg`, `image/png` or `image/heic`.
    public var contentType: String
    /// The product's GTIN-14.
    public var gtin: String
    /// The task it was attached to.
    public var taskID: String
    /// The task's batch ("" for an ad-hoc task).
    public var batchID: String
    /// Who attached it.
    public var inspectorID: String
    /// When (occurred-at).
    public var occurredAt: Timestamp
}

extension AuditQueries {
    /// The latest `limit` photos of the product `gtin`, oldest first (the photo read model finds
    /// them; each one's hash, size and type are read from the log at its position).
    public func photos(gtin: String, limit: Int = 48) throws -> [InspectionPhoto] {
        let rows = try withProjections { try $0.photos(gtin: gtin, limit: limit) }
        return rows.compactMap(photo)
    }

    /// The latest `limit` photos of the task `taskID`, oldest first.
    public func photos(task taskID: String, limit: Int = 48) throws -> [InspectionPhoto] {
        let rows = try withProjections { try $0.photos(task: taskID, limit: limit) }
        return rows.compactMap(photo)
    }

    /// The stored image with this hash, nil when it is not uploaded yet (or the hash is not one):
    /// from `<data>/blobs/`, or from the database of a PostgreSQL log.
    public func photoBytes(sha256: String) -> [UInt8]? {
        photoStore?.read(sha256: sha256)
    }

    /// Whether the image with this hash is in the photo store (uploaded).
    public func isPhotoStored(sha256: String) -> Bool {
        photoStore?.contains(sha256: sha256) ?? false
    }

    /// The photo store of the data directory (or of the PostgreSQL log), read only; nil when the
    /// directory has none.
    static func photoStore(directory: DataDirectory, log: any EventStore) -> PhotoStore? {
        if let shared = log as? PostgresEventStore {
            return PhotoStore(
                database: PostgresBlobStore(store: shared), directory: directory.blobs, policy: PhotoPolicy())
        }
        guard FileManager.default.fileExists(atPath: directory.blobs.path) else { return nil }
        return try? PhotoStore(directory: directory.blobs, policy: PhotoPolicy())
    }

    /// The photo the `PhotoAttached` at `row.position` describes; nil when the record there is
    /// not one (a projection database from another log).
    private func photo(_ row: PhotoRow) -> InspectionPhoto? {
        var attached: PhotoAttached?
        // Read in place (a view into the decompressed frame): no record of the frame is copied.
        try? log.forEachRecordView(from: row.position, upTo: row.position) { record in
            guard record.hasEventType(PhotoAttached.eventType),
                case .photoAttached(let event)? = try? record.withPayload({ payload in
                    try InspectionEvent.decode(
                        eventType: PhotoAttached.eventType, schemaVersion: Int(record.schemaVersion), payload: payload)
                })
            else { return }
            attached = event
        }
        guard let attached, attached.taskID == row.taskID else { return nil }
        return InspectionPhoto(
            position: row.position, sha256: attached.sha256, byteCount: attached.byteCount,
            contentType: attached.contentType, gtin: row.gtin, taskID: row.taskID, batchID: row.batchID,
            inspectorID: row.inspectorID, occurredAt: row.occurredAt)
    }
}
