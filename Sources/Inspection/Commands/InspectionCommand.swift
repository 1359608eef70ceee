import Chronology

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
    case detachPhoto(DetachPhoto)
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
    public var occurredAt: Timestamp?
    /// What to do.
    public var command: InspectionCommand

    /// Creates the command.
    public init(commandID: String, actor: String, occurredAt: Timestamp? = nil, command: InspectionCommand) {
        self.commandID = commandID
        self.actor = actor
        self.occurredAt = occurredAt
        self.command = command
    }
}

/// Registers a location (or renames it).
public struct RegisterLocation: Sendable, Hashable, Codable {
    /// The location's id.
    public var locationID: String
    /// Display name.
    public var name: String
    /// 0 store, 1 warehouse, 2 inspection centre.
    public var kind: LocationKind
    /// Creates the command.
    public init(locationID: String, name: String, kind: LocationKind) {
        self.locationID = locationID
        self.name = name
        self.kind = kind
    }
}

/// Registers a person (or changes their name or role).
public struct RegisterInspector: Sendable, Hashable, Codable {
    /// The inspector's id.
    public var inspectorID: String
    /// Display name.
    public var name: String
    /// 0 inspector, 1 receiver, 2 manager.
    public var role: InspectorRole
    /// Creates the command.
    public init(inspectorID: String, name: String, role: InspectorRole) {
        self.inspectorID = inspectorID
        self.name = name
        self.role = role
    }
}

/// Registers a product in the catalogue; the GTIN may have 8, 12, 13 or 14 digits.
public struct RegisterProduct: Sendable, Hashable, Codable {
    /// The GTIN (8, 12, 13 or 14 digits; stored as 14).
    public var gtin: String
    /// Display name.
    public var name: String
    /// Brand.
    public var brand: String
    /// Manufacturer.
    public var manufacturer: String
    /// 0 base unit, 1 case, 2 pallet.
    public var productType: ProductType
    /// Category.
    public var category: String
    /// The contained unit (case to base), when there is one; `children` names several.
    public var childGTIN: String?
    /// How many child units (1 when a child is given without a quantity).
    public var childQuantity: Int?
    /// Where it is stocked.
    public var listings: [ProductListing]?
    /// Every contained product with its quantity (a shipper of mixed products has several); given
    /// instead of `childGTIN` and `childQuantity`, never with them.
    public var children: [ProductChild]?
    /// Creates the command.
    public init(
        gtin: String, name: String, brand: String, manufacturer: String, productType: ProductType, category: String,
        childGTIN: String? = nil, childQuantity: Int? = nil, listings: [ProductListing]? = nil,
        children: [ProductChild]? = nil
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
        self.children = children
    }
}

/// Imports a datasheet: it becomes the product's latest and defines what inspections cover.
public struct ImportDatasheet: Sendable, Hashable, Codable {
    /// The GTIN (8, 12, 13 or 14 digits; stored as 14).
    public var gtin: String
    /// The datasheet's id.
    public var datasheetID: String
    /// Where the datasheet came from.
    public var source: String
    /// The attributes, flattened to paths.
    public var attributes: [DatasheetAttribute]
    /// Creates the command.
    public init(gtin: String, datasheetID: String, source: String, attributes: [DatasheetAttribute]) {
        self.gtin = gtin
        self.datasheetID = datasheetID
        self.source = source
        self.attributes = attributes
    }
}

/// Records the rule engine's findings for a product's datasheet.
public struct RecordRuleCheck: Sendable, Hashable, Codable {
    /// The rule engine's result.
    public var check: RuleCheckRecorded
    /// Creates the command.
    public init(check: RuleCheckRecorded) { self.check = check }
    /// Creates the command.
    public init(from decoder: any Decoder) throws { check = try RuleCheckRecorded(from: decoder) }
    public func encode(to encoder: any Encoder) throws { try check.encode(to: encoder) }
}

/// Receives a sample at an inspection centre into the new-product queue (the actor is the receiver).
public struct ReceiveProduct: Sendable, Hashable, Codable {
    /// The reception's id.
    public var receptionID: String
    /// The GTIN (8, 12, 13 or 14 digits; stored as 14).
    public var gtin: String
    /// The location's id.
    public var locationID: String
    /// 0 good, 1 damaged.
    public var condition: ProductCondition
    /// 0 normal, 1 high, 2 urgent.
    public var priority: ReceptionPriority
    /// The date the inspection is needed by, if any.
    public var inspectBefore: Timestamp?
    /// 0 donate, 1 dispose, 2 return.
    public var decommission: DecommissionType
    /// The scanned shelf barcode.
    public var storageLocation: String
    /// Creates the command.
    public init(
        receptionID: String, gtin: String, locationID: String, condition: ProductCondition = .good,
        priority: ReceptionPriority = .normal, inspectBefore: Timestamp? = nil,
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

    private enum CodingKeys: String, CodingKey {
        case receptionID, gtin, locationID, condition, priority, inspectBefore, decommission, storageLocation
    }

    /// Condition, priority and decommission may be left out: good, normal and donate (seed 4.2.5).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            receptionID: try container.decode(String.self, forKey: .receptionID),
            gtin: try container.decode(String.self, forKey: .gtin),
            locationID: try container.decode(String.self, forKey: .locationID),
            condition: try container.decodeIfPresent(ProductCondition.self, forKey: .condition) ?? .good,
            priority: try container.decodeIfPresent(ReceptionPriority.self, forKey: .priority) ?? .normal,
            inspectBefore: try container.decodeIfPresent(Timestamp.self, forKey: .inspectBefore),
            decommission: try container.decodeIfPresent(DecommissionType.self, forKey: .decommission) ?? .donate,
            storageLocation: try container.decode(String.self, forKey: .storageLocation))
    }
}

/// Asks for a batch at a location: give exactly one of `quantity` or `minutes`.
public struct AllocateBatch: Sendable, Hashable, Codable {
    /// The inspector's id.
    public var inspectorID: String
    /// The location's id.
    public var locationID: String
    /// 0 wholesale, 1 new product, 2 existing product, 3 reinspection.
    public var mode: InspectionMode
    /// Products wanted (or give minutes).
    public var quantity: Int?
    /// Minutes available (or give quantity).
    public var minutes: Int?
    /// Creates the command.
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
    /// The inspector's id.
    public var inspectorID: String
    /// The location's id.
    public var locationID: String
    /// The GTIN (8, 12, 13 or 14 digits; stored as 14).
    public var gtin: String
    /// Creates the command.
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
    /// The batch.
    public var batchID: String
    /// Creates the command.
    public init(batchID: String) { self.batchID = batchID }
}

/// Pauses collection.
public struct PauseCollection: BatchCommand {
    /// The batch.
    public var batchID: String
    /// Creates the command.
    public init(batchID: String) { self.batchID = batchID }
}

/// Finishes collection: every task must be collected or skipped.
public struct FinishCollection: BatchCommand {
    /// The batch.
    public var batchID: String
    /// Creates the command.
    public init(batchID: String) { self.batchID = batchID }
}

/// Abandons the batch during collection; its open tasks are released.
public struct CancelCollection: BatchCommand {
    /// The batch.
    public var batchID: String
    /// Creates the command.
    public init(batchID: String) { self.batchID = batchID }
}

/// Submits a batch that is ready for submission.
public struct SubmitBatch: BatchCommand {
    /// The batch.
    public var batchID: String
    /// Creates the command.
    public init(batchID: String) { self.batchID = batchID }
}

/// Releases the open tasks of a batch past its expiry (sent by the system).
public struct ExpireBatch: BatchCommand {
    /// The batch.
    public var batchID: String
    /// Creates the command.
    public init(batchID: String) { self.batchID = batchID }
}

/// Cancels a batch that is not submitted.
public struct CancelBatch: Sendable, Hashable, Codable {
    /// The batch.
    public var batchID: String
    /// Why.
    public var reason: String
    /// Creates the command.
    public init(batchID: String, reason: String) {
        self.batchID = batchID
        self.reason = reason
    }
}

/// Matches a scanned barcode to a pending task of the batch (or to `taskID` when given).
public struct CollectProduct: Sendable, Hashable, Codable {
    /// The batch.
    public var batchID: String
    /// The scanned text.
    public var scanned: String
    /// The task.
    public var taskID: String?
    /// Creates the command.
    public init(batchID: String, scanned: String, taskID: String? = nil) {
        self.batchID = batchID
        self.scanned = scanned
        self.taskID = taskID
    }
}

/// Skips collecting a task's product, with reason code 0–2.
public struct SkipCollection: Sendable, Hashable, Codable {
    /// The task.
    public var taskID: String
    /// Why.
    public var reason: SkipReason
    /// Creates the command.
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
    /// The task.
    public var taskID: String
    /// Creates the command.
    public init(taskID: String) { self.taskID = taskID }
}

/// Pauses a task's inspection.
public struct PauseInspection: TaskCommand {
    /// The task.
    public var taskID: String
    /// Creates the command.
    public init(taskID: String) { self.taskID = taskID }
}

/// Finishes a task's inspection: every datasheet attribute needs a verdict.
public struct FinishInspection: TaskCommand {
    /// The task.
    public var taskID: String
    /// Creates the command.
    public init(taskID: String) { self.taskID = taskID }
}

/// Skips a collected task's inspection.
public struct SkipInspection: Sendable, Hashable, Codable {
    /// The task.
    public var taskID: String
    /// Why.
    public var reason: String
    /// Creates the command.
    public init(taskID: String, reason: String) {
        self.taskID = taskID
        self.reason = reason
    }
}

/// One attribute verdict inside ``RecordVerdicts``.
public struct VerdictEntry: Sendable, Hashable, Codable {
    /// The attribute path.
    public var path: String
    /// 0 unable to validate, 1 passed, 2 warning, 3 failure.
    public var verdict: Verdict
    /// The inspector's note.
    public var note: String?
    /// What was measured or read on the package.
    public var measuredValue: String?
    /// Creates the command.
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
    /// The task.
    public var taskID: String
    /// The verdicts.
    public var verdicts: [VerdictEntry]
    /// Creates the command.
    public init(taskID: String, verdicts: [VerdictEntry]) {
        self.taskID = taskID
        self.verdicts = verdicts
    }
}

/// Removes a photo attached by mistake, while the batch is not submitted.
public struct DetachPhoto: Sendable, Hashable, Codable {
    /// The task.
    public var taskID: String
    /// Lower-case hex SHA-256 of the attached image.
    public var sha256: String
    /// Creates the command.
    public init(taskID: String, sha256: String) {
        self.taskID = taskID
        self.sha256 = sha256
    }
}

/// Attaches a photo (by SHA-256); the image may be uploaded before or after.
public struct AttachPhoto: Sendable, Hashable, Codable {
    /// The task.
    public var taskID: String
    /// Lower-case hex SHA-256 of the image.
    public var sha256: String
    /// The image size in bytes.
    public var byteCount: Int
    /// image/jpeg, image/png or image/heic.
    public var contentType: String
    /// Creates the command.
    public init(taskID: String, sha256: String, byteCount: Int, contentType: String) {
        self.taskID = taskID
        self.sha256 = sha256
        self.byteCount = byteCount
        self.contentType = contentType
    }
}
