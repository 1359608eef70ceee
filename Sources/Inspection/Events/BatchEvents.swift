import Chronology

/// One task of a new batch: which product, in which order.
public struct AllocatedTask: Sendable, Hashable, Codable {
    /// Stable task id.
    public var taskID: String
    /// The product's GTIN-14.
    public var gtin: String

    /// Creates the event.
    public init(taskID: String, gtin: String) {
        self.taskID = taskID
        self.gtin = gtin
    }
}

/// The server gave an inspector a batch of tasks at a location (batch status 0).
public struct BatchAllocated: InspectionEventPayload {
    public static let eventType = "BatchAllocated"
    public static let schemaVersion = 1
    /// Stable batch id.
    public var batchID: String
    /// Who holds the batch.
    public var inspectorID: String
    /// Where the products are collected.
    public var locationID: String
    /// Wholesale, new product, existing product or reinspection.
    public var mode: InspectionMode
    /// The quantity asked for, if the request was by quantity.
    public var requestedQuantity: Int?
    /// The minutes available, if the request was by time.
    public var requestedMinutes: Int?
    /// When the batch's open tasks are released if it is not submitted.
    public var expiresAt: Timestamp
    /// The tasks, in the suggested order.
    public var tasks: [AllocatedTask]

    /// Creates the event.
    public init(
        batchID: String, inspectorID: String, locationID: String, mode: InspectionMode, requestedQuantity: Int?,
        requestedMinutes: Int?, expiresAt: Timestamp, tasks: [AllocatedTask]
    ) {
        self.batchID = batchID
        self.inspectorID = inspectorID
        self.locationID = locationID
        self.mode = mode
        self.requestedQuantity = requestedQuantity
        self.requestedMinutes = requestedMinutes
        self.expiresAt = expiresAt
        self.tasks = tasks
    }
}

/// A single task outside any batch (ad-hoc mode): the product is in hand, ready to inspect.
public struct AdHocTaskAllocated: InspectionEventPayload {
    public static let eventType = "AdHocTaskAllocated"
    public static let schemaVersion = 1
    /// Stable task id.
    public var taskID: String
    /// Who holds the task.
    public var inspectorID: String
    /// Where the inspector is.
    public var locationID: String
    /// The product's GTIN-14.
    public var gtin: String

    /// Creates the event.
    public init(taskID: String, inspectorID: String, locationID: String, gtin: String) {
        self.taskID = taskID
        self.inspectorID = inspectorID
        self.locationID = locationID
        self.gtin = gtin
    }
}

/// An event about a whole batch that carries nothing but its id.
public protocol BatchTransition: InspectionEventPayload {
    /// The batch.
    var batchID: String { get }
    init(batchID: String)
}

extension BatchTransition {
    public func encode(into writer: inout PayloadWriter) { writer.string(batchID) }
    /// Creates the event.
    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(batchID: try reader.string())
    }
}

/// Collection started, or resumed after a pause (batch status 1).
public struct CollectionStarted: BatchTransition {
    public static let eventType = "CollectionStarted"
    public static let schemaVersion = 1
    /// The batch.
    public var batchID: String
    /// Creates the event.
    public init(batchID: String) { self.batchID = batchID }
}

/// Collection paused (batch stays at status 1).
public struct CollectionPaused: BatchTransition {
    public static let eventType = "CollectionPaused"
    public static let schemaVersion = 1
    /// The batch.
    public var batchID: String
    /// Creates the event.
    public init(batchID: String) { self.batchID = batchID }
}

/// Every task was collected or skipped (batch status 2).
public struct CollectionFinished: BatchTransition {
    public static let eventType = "CollectionFinished"
    public static let schemaVersion = 1
    /// The batch.
    public var batchID: String
    /// Creates the event.
    public init(batchID: String) { self.batchID = batchID }
}

/// The inspector abandoned the batch during collection (batch status 7, open tasks released).
public struct CollectionCancelled: BatchTransition {
    public static let eventType = "CollectionCancelled"
    public static let schemaVersion = 1
    /// The batch.
    public var batchID: String
    /// Creates the event.
    public init(batchID: String) { self.batchID = batchID }
}

/// The results were submitted (batch status 6).
public struct BatchSubmitted: BatchTransition {
    public static let eventType = "BatchSubmitted"
    public static let schemaVersion = 1
    /// The batch.
    public var batchID: String
    /// Creates the event.
    public init(batchID: String) { self.batchID = batchID }
}

/// The batch was cancelled outside collection (batch status 7, open tasks released).
public struct BatchCancelled: InspectionEventPayload {
    public static let eventType = "BatchCancelled"
    public static let schemaVersion = 1
    /// The batch.
    public var batchID: String
    /// Why, as the inspector or manager gave it.
    public var reason: String

    /// Creates the event.
    public init(batchID: String, reason: String) {
        self.batchID = batchID
        self.reason = reason
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(batchID)
        writer.string(reason)
    }

    /// Creates the event.
    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(batchID: try reader.string(), reason: try reader.string())
    }
}

/// The batch passed its expiry unsubmitted: its open tasks were released (batch status 7).
public struct BatchExpired: InspectionEventPayload {
    public static let eventType = "BatchExpired"
    public static let schemaVersion = 1
    /// The batch.
    public var batchID: String
    /// The tasks that were still open and are now released.
    public var releasedTaskIDs: [String]

    /// Creates the event.
    public init(batchID: String, releasedTaskIDs: [String]) {
        self.batchID = batchID
        self.releasedTaskIDs = releasedTaskIDs
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(batchID)
        writer.strings(releasedTaskIDs)
    }

    /// Creates the event.
    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(batchID: try reader.string(), releasedTaskIDs: try reader.strings())
    }
}
