/// Every command the domain decides. Each is one line of `itemaudit record` input and one API call.
///
/// In JSON a command is flat: the envelope fields (`commandID`, `actor`, optional `occurredAt`),
/// `type` (the case name in UpperCamelCase, e.g. `StartCollection`) and the command's own fields;
/// `Schemas/commands/<type>.json` describes each.
public enum InspectionCommand: Sendable, Hashable {
    case registerLocation(RegisterLocation)
    case registerInspector(RegisterInspector)
    case registerProduct(RegisterProduct)
    case importDatasheet(ImportDatasheet)
    case recordRuleCheck(RecordRuleCheck)
    case receiveProduct(ReceiveProduct)
    case allocateBatch(AllocateBatch)
    case allocateAdHocTask(AllocateAdHocTask)
    case startCollection(StartCollection)
    case pauseCollection(PauseCollection)
    case finishCollection(FinishCollection)
    case cancelCollection(CancelCollection)
    case collectProduct(CollectProduct)
    case skipCollection(SkipCollection)
    case startInspection(StartInspection)
    case pauseInspection(PauseInspection)
    case recordVerdicts(RecordVerdicts)
    case attachPhoto(AttachPhoto)
    case finishInspection(FinishInspection)
    case skipInspection(SkipInspection)
    case submitBatch(SubmitBatch)
    case cancelBatch(CancelBatch)
    case expireBatch(ExpireBatch)
}

/// A command with who sent it, when, and the id that makes resending it safe.
public struct CommandEnvelope: Sendable, Hashable {
    /// Unique per command; a repeat with the same id is answered with the first outcome.
    public var commandID: String
    /// Who issued it (an inspector id, or `system`).
    public var actor: String
    /// The device's clock when the action happened; the server's time when absent.
    public var occurredAt: EventTime?
    /// What to do.
    public var command: InspectionCommand

    public init(commandID: String, actor: String, occurredAt: EventTime? = nil, command: InspectionCommand) {
        self.commandID = commandID
        self.actor = actor
        self.occurredAt = occurredAt
        self.command = command
    }
}

/// Registers a location (or renames it).
public struct RegisterLocation: Sendable, Hashable, Codable {
    public var locationID: String
    public var name: String
    public var kind: LocationKind
    public init(locationID: String, name: String, kind: LocationKind) {
        self.locationID = locationID
        self.name = name
        self.kind = kind
    }
}

/// Registers a person (or changes their name or role).
public struct RegisterInspector: Sendable, Hashable, Codable {
    public var inspectorID: String
    public var name: String
    public var role: InspectorRole
    public init(inspectorID: String, name: String, role: InspectorRole) {
        self.inspectorID = inspectorID
        self.name = name
        self.role = role
    }
}

/// Registers a product in the catalogue; the GTIN may have 8, 12, 13 or 14 digits.
public struct RegisterProduct: Sendable, Hashable, Codable {
    public var gtin: String
    public var name: String
    public var brand: String
    public var manufacturer: String
    public var productType: ProductType
    public var category: String
    public var childGTIN: String?
    public var childQuantity: Int?
    public var listings: [ProductListing]?
    public init(
        gtin: String, name: String, brand: String, manufacturer: String, productType: ProductType, category: String,
        childGTIN: String? = nil, childQuantity: Int? = nil, listings: [ProductListing]? = nil
    ) {
        self.gtin = gtin
        self.name = name
        self.brand = brand
        self.manufacturer = manufacturer
        self.productType = productType
        self.category = category
        self.childGTIN = childGTIN
        self.childQuantity = childQuantity
        self.listings = listings
    }
}

/// Imports a datasheet: it becomes the product's latest and defines what inspections cover.
public struct ImportDatasheet: Sendable, Hashable, Codable {
    public var gtin: String
    public var datasheetID: String
    public var source: String
    public var attributes: [DatasheetAttribute]
    public init(gtin: String, datasheetID: String, source: String, attributes: [DatasheetAttribute]) {
        self.gtin = gtin
        self.datasheetID = datasheetID
        self.source = source
        self.attributes = attributes
    }
}

/// Records the rule engine's findings for a product's datasheet.
public struct RecordRuleCheck: Sendable, Hashable, Codable {
    public var check: RuleCheckRecorded
    public init(check: RuleCheckRecorded) { self.check = check }
    public init(from decoder: any Decoder) throws { check = try RuleCheckRecorded(from: decoder) }
    public func encode(to encoder: any Encoder) throws { try check.encode(to: encoder) }
}

/// Receives a sample at an inspection centre into the new-product queue (the actor is the receiver).
public struct ReceiveProduct: Sendable, Hashable, Codable {
    public var receptionID: String
    public var gtin: String
    public var locationID: String
    public var condition: ProductCondition
    public var priority: ReceptionPriority
    public var inspectBefore: EventTime?
    public var decommission: DecommissionType
    public var storageLocation: String
    public init(
        receptionID: String, gtin: String, locationID: String, condition: ProductCondition = .good,
        priority: ReceptionPriority = .normal, inspectBefore: EventTime? = nil,
        decommission: DecommissionType = .donate,
        storageLocation: String
    ) {
        self.receptionID = receptionID
        self.gtin = gtin
        self.locationID = locationID
        self.condition = condition
        self.priority = priority
        self.inspectBefore = inspectBefore
        self.decommission = decommission
        self.storageLocation = storageLocation
    }
}

/// Asks for a batch at a location: give exactly one of `quantity` or `minutes`.
public struct AllocateBatch: Sendable, Hashable, Codable {
    public var inspectorID: String
    public var locationID: String
    public var mode: InspectionMode
    public var quantity: Int?
    public var minutes: Int?
    public init(
        inspectorID: String, locationID: String, mode: InspectionMode, quantity: Int? = nil, minutes: Int? = nil
    ) {
        self.inspectorID = inspectorID
        self.locationID = locationID
        self.mode = mode
        self.quantity = quantity
        self.minutes = minutes
    }
}

/// Takes one product in hand for an ad-hoc inspection (no batch).
public struct AllocateAdHocTask: Sendable, Hashable, Codable {
    public var inspectorID: String
    public var locationID: String
    public var gtin: String
    public init(inspectorID: String, locationID: String, gtin: String) {
        self.inspectorID = inspectorID
        self.locationID = locationID
        self.gtin = gtin
    }
}

/// A command about one batch that carries nothing but its id.
public protocol BatchCommand: Sendable, Hashable, Codable {
    var batchID: String { get }
}

/// Starts (or resumes) collection.
public struct StartCollection: BatchCommand {
    public var batchID: String
    public init(batchID: String) { self.batchID = batchID }
}

/// Pauses collection.
public struct PauseCollection: BatchCommand {
    public var batchID: String
    public init(batchID: String) { self.batchID = batchID }
}

/// Finishes collection: every task must be collected or skipped.
public struct FinishCollection: BatchCommand {
    public var batchID: String
    public init(batchID: String) { self.batchID = batchID }
}

/// Abandons the batch during collection; its open tasks are released.
public struct CancelCollection: BatchCommand {
    public var batchID: String
    public init(batchID: String) { self.batchID = batchID }
}

/// Submits a batch that is ready for submission.
public struct SubmitBatch: BatchCommand {
    public var batchID: String
    public init(batchID: String) { self.batchID = batchID }
}

/// Releases the open tasks of a batch past its expiry (sent by the system).
public struct ExpireBatch: BatchCommand {
    public var batchID: String
    public init(batchID: String) { self.batchID = batchID }
}

/// Cancels a batch that is not submitted.
public struct CancelBatch: Sendable, Hashable, Codable {
    public var batchID: String
    public var reason: String
    public init(batchID: String, reason: String) {
        self.batchID = batchID
        self.reason = reason
    }
}

/// Matches a scanned barcode to a pending task of the batch (or to `taskID` when given).
public struct CollectProduct: Sendable, Hashable, Codable {
    public var batchID: String
    public var scanned: String
    public var taskID: String?
    public init(batchID: String, scanned: String, taskID: String? = nil) {
        self.batchID = batchID
        self.scanned = scanned
        self.taskID = taskID
    }
}

/// Skips collecting a task's product, with reason code 0–2.
public struct SkipCollection: Sendable, Hashable, Codable {
    public var taskID: String
    public var reason: SkipReason
    public init(taskID: String, reason: SkipReason) {
        self.taskID = taskID
        self.reason = reason
    }
}

/// A command about one task that carries nothing but its id.
public protocol TaskCommand: Sendable, Hashable, Codable {
    var taskID: String { get }
}

/// Starts (or resumes) a task's inspection.
public struct StartInspection: TaskCommand {
    public var taskID: String
    public init(taskID: String) { self.taskID = taskID }
}

/// Pauses a task's inspection.
public struct PauseInspection: TaskCommand {
    public var taskID: String
    public init(taskID: String) { self.taskID = taskID }
}

/// Finishes a task's inspection: every datasheet attribute needs a verdict.
public struct FinishInspection: TaskCommand {
    public var taskID: String
    public init(taskID: String) { self.taskID = taskID }
}

/// Skips a collected task's inspection.
public struct SkipInspection: Sendable, Hashable, Codable {
    public var taskID: String
    public var reason: String
    public init(taskID: String, reason: String) {
        self.taskID = taskID
        self.reason = reason
    }
}

/// One attribute verdict inside ``RecordVerdicts``.
public struct VerdictEntry: Sendable, Hashable, Codable {
    public var path: String
    public var verdict: Verdict
    public var note: String?
    public var measuredValue: String?
    public init(path: String, verdict: Verdict, note: String? = nil, measuredValue: String? = nil) {
        self.path = path
        self.verdict = verdict
        self.note = note
        self.measuredValue = measuredValue
    }
}

/// Records verdicts on attributes of a task in progress (one event each; a later verdict on
/// the same path replaces the earlier one).
public struct RecordVerdicts: Sendable, Hashable, Codable {
    public var taskID: String
    public var verdicts: [VerdictEntry]
    public init(taskID: String, verdicts: [VerdictEntry]) {
        self.taskID = taskID
        self.verdicts = verdicts
    }
}

/// Attaches a photo (by SHA-256); the image may be uploaded before or after.
public struct AttachPhoto: Sendable, Hashable, Codable {
    public var taskID: String
    public var sha256: String
    public var byteCount: Int
    public var contentType: String
    public init(taskID: String, sha256: String, byteCount: Int, contentType: String) {
        self.taskID = taskID
        self.sha256 = sha256
        self.byteCount = byteCount
        self.contentType = contentType
    }
}
