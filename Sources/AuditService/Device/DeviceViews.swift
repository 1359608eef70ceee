import Chronology
import Inspection

/// What a device shows of a batch, from the service's current state (not the projections: a
/// device must see its own writes at once).
public struct DeviceBatch: Sendable, Hashable, Codable {
    public var batchID: String
    public var inspectorID: String
    public var locationID: String
    public var mode: Int
    public var status: Int
    public var collectionPaused: Bool
    public var expired: Bool
    public var allocatedAt: Timestamp
    public var expiresAt: Timestamp
    public var taskCount: Int
    /// The tasks, in suggested order (only when one batch is asked for).
    public var tasks: [DeviceTask]?
    /// Photos its tasks name that are not uploaded yet: submission waits for them.
    public var missingPhotos: [String]
    /// Still open with less than ``AuditService/expiresSoonWithin`` left before it expires.
    public var expiresSoon: Bool
    /// When it was submitted (status 6).
    public var submittedAt: Timestamp?
    /// When it was cancelled or expired (status 7).
    public var cancelledAt: Timestamp?
    /// The reason given with `CancelBatch`.
    public var cancellationReason: String?
}

/// One task of a batch as a device shows it.
public struct DeviceTask: Sendable, Hashable, Codable {
    public var taskID: String
    public var gtin: String
    public var name: String
    public var brand: String
    public var productType: Int
    public var childGTIN: String?
    public var childQuantity: Int?
    /// Where to find it at the batch's location.
    public var aisle: String?
    /// Where a received sample waits at the inspection centre (new-product inspections).
    public var shelf: String?
    /// The net content with its unit (`500 g`), to tell the pack from its neighbours.
    public var packageSize: String?
    /// What the product looks like: the latest photo of a passed inspection stored here, else the
    /// datasheet's image link (never fetched by the server).
    public var referenceImage: ReferenceImage?
    public var collectionStatus: Int
    public var skipReason: Int?
    public var inspectionStatus: Int?
    public var photos: [String]
}

/// A location a batch can be allocated at.
public struct DeviceLocation: Sendable, Hashable, Codable {
    public var locationID: String
    public var name: String
    public var kind: Int
}

extension AuditService {
    /// Batches, newest first; only `inspectorID`'s when given, filtered by status and mode.
    public func deviceBatches(inspectorID: String?, status: Int?, mode: Int?) -> [DeviceBatch] {
        // One inspector's batches come from their index: a device lists its batches every round,
        // and scanning every batch ever allocated grew with the log.
        let candidates: [InspectionState.Batch] =
            if let inspectorID {
                (state.batchIDsByInspector[inspectorID] ?? []).compactMap { state.batches[$0] }
            } else {
                Array(state.batches.values)
            }
        return
            candidates
            .filter { batch in
                (inspectorID.map { $0 == batch.inspectorID } ?? true)
                    && (status.map { $0 == batch.status.rawValue } ?? true)
                    && (mode.map { $0 == batch.mode.rawValue } ?? true)
            }
            .sorted { ($0.allocatedAt, $0.id) > ($1.allocatedAt, $1.id) }
            .map { deviceBatch($0, withTasks: false) }
    }

    /// One batch with its tasks, or nil.
    public func deviceBatch(_ batchID: String) -> DeviceBatch? {
        state.batches[batchID].map { deviceBatch($0, withTasks: true) }
    }

    private func deviceBatch(_ batch: InspectionState.Batch, withTasks: Bool) -> DeviceBatch {
        let tasks = batch.taskIDs.compactMap { state.tasks[$0] }
        // A photo attached to two tasks is uploaded once: listed once.
        var listed: Set<String> = []
        let missing = tasks.flatMap(\.photos).filter { !photos.contains(sha256: $0) && listed.insert($0).inserted }
        return DeviceBatch(
            batchID: batch.id, inspectorID: batch.inspectorID, locationID: batch.locationID, mode: batch.mode.rawValue,
            status: batch.status.rawValue, collectionPaused: batch.collectionPaused, expired: batch.expired,
            allocatedAt: batch.allocatedAt, expiresAt: batch.expiresAt, taskCount: batch.taskIDs.count,
            tasks: withTasks ? tasks.map { deviceTask($0) } : nil, missingPhotos: missing,
            expiresSoon: batch.status.rawValue < BatchStatus.submitted.rawValue
                && batch.expiresAt.microsecondsSinceEpoch - now.microsecondsSinceEpoch < Self.expiresSoonWithin,
            submittedAt: batch.submittedAt, cancelledAt: batch.cancelledAt, cancellationReason: batch.cancellationReason
        )
    }

    /// An open batch with less than a day left is marked, so the inspector finishes or submits it.
    public static let expiresSoonWithin: Int64 = 24 * 60 * Timestamp.microsecondsPerMinute

    func deviceTask(_ task: InspectionState.Task) -> DeviceTask {
        let product = state.products[task.gtin]?.registration
        // The device names the one product a case holds; a mixed case names none (its scan matches any).
        let onlyChild = product?.children.count == 1 ? product?.children.first : nil
        return DeviceTask(
            taskID: task.id, gtin: task.gtin, name: product?.name ?? "", brand: product?.brand ?? "",
            productType: product?.productType.rawValue ?? 0, childGTIN: onlyChild?.gtin,
            childQuantity: onlyChild?.quantity,
            aisle: product?.listings.first { $0.locationID == task.locationID }?.aisle,
            shelf: task.mode == .newProduct ? state.products[task.gtin]?.shelf : nil,
            packageSize: state.products[task.gtin].flatMap(Self.packageSize(of:)),
            referenceImage: state.products[task.gtin].flatMap { referenceImage(of: $0) },
            collectionStatus: task.collectionStatus.rawValue, skipReason: task.skipReason?.rawValue,
            inspectionStatus: task.inspectionStatus?.rawValue, photos: task.photos)
    }

    /// Every location, by id.
    public func deviceLocations() -> [DeviceLocation] {
        state.locations.values.sorted { $0.id < $1.id }.map {
            DeviceLocation(locationID: $0.id, name: $0.name, kind: $0.kind.rawValue)
        }
    }
}
