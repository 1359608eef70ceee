/// A product was collected: the scanned code matched the task.
public struct ProductCollected: InspectionEventPayload {
    public static let eventType = "ProductCollected"
    public static let taskEventKind: TaskEvent.Kind? = .productCollected
    public static let schemaVersion = 1
    /// The task.
    public var taskID: String
    /// The scanned string exactly as the scanner gave it.
    public var scanned: String
    /// The GTIN-14 the scan resolved to (the task's product or its case/base relative).
    public var matchedGTIN: String

    /// Creates the event.
    public init(taskID: String, scanned: String, matchedGTIN: String) {
        self.taskID = taskID
        self.scanned = scanned
        self.matchedGTIN = matchedGTIN
    }
}

/// A product could not be collected; the product is released.
public struct CollectionSkipped: InspectionEventPayload {
    public static let eventType = "CollectionSkipped"
    public static let taskEventKind: TaskEvent.Kind? = .collectionSkipped
    public static let schemaVersion = 1
    /// The task.
    public var taskID: String
    /// Reason code 0–2.
    public var reason: SkipReason

    /// Creates the event.
    public init(taskID: String, reason: SkipReason) {
        self.taskID = taskID
        self.reason = reason
    }
}

/// An event about a task that carries nothing but its id.
public protocol TaskTransition: InspectionEventPayload {
    /// The task.
    var taskID: String { get }
    init(taskID: String)
}

extension TaskTransition {
    public func encode(into writer: inout PayloadWriter) { writer.string(taskID) }
    /// Creates the event.
    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(taskID: try reader.string())
    }
}

/// The inspector opened (or resumed) the task's inspection.
public struct InspectionStarted: TaskTransition {
    public static let eventType = "InspectionStarted"
    public static let taskEventKind: TaskEvent.Kind? = .inspectionStarted
    public static let schemaVersion = 1
    /// The task.
    public var taskID: String
    /// Creates the event.
    public init(taskID: String) { self.taskID = taskID }
}

/// The inspector paused the task's inspection.
public struct InspectionPaused: TaskTransition {
    public static let eventType = "InspectionPaused"
    public static let taskEventKind: TaskEvent.Kind? = .inspectionPaused
    public static let schemaVersion = 1
    /// The task.
    public var taskID: String
    /// Creates the event.
    public init(taskID: String) { self.taskID = taskID }
}

/// A verdict on one datasheet attribute, with an optional note and measured value (v2).
public struct AttributeVerdictRecorded: InspectionEventPayload {
    public static let eventType = "AttributeVerdictRecorded"
    public static let taskEventKind: TaskEvent.Kind? = .attributeVerdictRecorded
    /// Also reads version 1 (an attribute path only), upcast to this shape.
    public static func registered(as embed: @escaping @Sendable (Self) -> InspectionEvent) -> EventType {
        .current(Self.self, embed, task: taskEventKind).reading(AttributeVerdictRecordedV1.self) { embed($0.upcast()) }
    }
    public static let schemaVersion = 2
    /// The task.
    public var taskID: String
    /// The datasheet attribute path.
    public var path: String
    /// Verdict code 0–3.
    public var verdict: Verdict
    /// The inspector's note (added in v2).
    public var note: String?
    /// What the inspector measured or read on the package (added in v2).
    public var measuredValue: String?

    /// Creates the event.
    public init(taskID: String, path: String, verdict: Verdict, note: String? = nil, measuredValue: String? = nil) {
        self.taskID = taskID
        self.path = path
        self.verdict = verdict
        self.note = note
        self.measuredValue = measuredValue
    }
}

/// Version 1 of ``AttributeVerdictRecorded``: no note, no measured value. Read only, upcast to v2.
public struct AttributeVerdictRecordedV1: EventPayload {
    public static let eventType = "AttributeVerdictRecorded"
    public static let schemaVersion = 1
    /// The task.
    public var taskID: String
    /// The datasheet attribute path.
    public var path: String
    /// Verdict code 0–3.
    public var verdict: Verdict

    /// Creates the event.
    public init(taskID: String, path: String, verdict: Verdict) {
        self.taskID = taskID
        self.path = path
        self.verdict = verdict
    }

    /// The v2 event: the same verdict without note or measured value.
    public func upcast() -> AttributeVerdictRecorded {
        AttributeVerdictRecorded(taskID: taskID, path: path, verdict: verdict)
    }
}

/// A photo was attached to a task; the image itself lives in the blob store under its SHA-256.
public struct PhotoAttached: InspectionEventPayload {
    public static let eventType = "PhotoAttached"
    public static let taskEventKind: TaskEvent.Kind? = .photoAttached
    public static let schemaVersion = 1
    /// The task.
    public var taskID: String
    /// Lower-case hex SHA-256 of the image bytes.
    public var sha256: String
    /// The image size in bytes.
    public var byteCount: Int
    /// `image/jpeg`, `image/png` or `image/heic`.
    public var contentType: String

    /// Creates the event.
    public init(taskID: String, sha256: String, byteCount: Int, contentType: String) {
        self.taskID = taskID
        self.sha256 = sha256
        self.byteCount = byteCount
        self.contentType = contentType
    }
}

/// Every attribute has a verdict: the task passed or failed.
public struct InspectionFinished: InspectionEventPayload {
    public static let eventType = "InspectionFinished"
    public static let taskEventKind: TaskEvent.Kind? = .inspectionFinished
    public static let schemaVersion = 1
    /// The task.
    public var taskID: String
    /// 2 passed or 3 failed.
    public var result: InspectionStatus
    /// Attributes passed.
    public var passedCount: Int
    /// Attributes with a warning.
    public var warningCount: Int
    /// Attributes failed.
    public var failureCount: Int
    /// Attributes that could not be validated.
    public var unableCount: Int

    /// Creates the event.
    public init(
        taskID: String, result: InspectionStatus, passedCount: Int, warningCount: Int, failureCount: Int,
        unableCount: Int
    ) {
        self.taskID = taskID
        self.result = result
        self.passedCount = passedCount
        self.warningCount = warningCount
        self.failureCount = failureCount
        self.unableCount = unableCount
    }
}

/// The inspection of a collected product was skipped (inspection status 4).
public struct InspectionSkipped: InspectionEventPayload {
    public static let eventType = "InspectionSkipped"
    public static let taskEventKind: TaskEvent.Kind? = .inspectionSkipped
    public static let schemaVersion = 1
    /// The task.
    public var taskID: String
    /// Why.
    public var reason: String

    /// Creates the event.
    public init(taskID: String, reason: String) {
        self.taskID = taskID
        self.reason = reason
    }
}
