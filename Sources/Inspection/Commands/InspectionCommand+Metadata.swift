/// Facts about each command that hold whatever the state: its type, which batch and task it
/// touches, whom an allocation is for, and which roles may send it. The service's ownership check
/// and the permission table (AuditService) are built on them.
///
/// Every switch names every case, without `default`: a new command does not compile until its
/// facts are decided here.
extension InspectionCommand {
    /// A command's type without its fields. The raw value is its `type` name in JSON (e.g.
    /// `StartCollection`), which also names its schema, `Schemas/commands/<type>.json`.
    public enum Kind: String, CaseIterable, Sendable {
        case registerLocation = "RegisterLocation"
        case registerInspector = "RegisterInspector"
        case registerProduct = "RegisterProduct"
        case importDatasheet = "ImportDatasheet"
        case recordRuleCheck = "RecordRuleCheck"
        case receiveProduct = "ReceiveProduct"
        case allocateBatch = "AllocateBatch"
        case allocateAdHocTask = "AllocateAdHocTask"
        case startCollection = "StartCollection"
        case pauseCollection = "PauseCollection"
        case finishCollection = "FinishCollection"
        case cancelCollection = "CancelCollection"
        case collectProduct = "CollectProduct"
        case skipCollection = "SkipCollection"
        case startInspection = "StartInspection"
        case pauseInspection = "PauseInspection"
        case recordVerdicts = "RecordVerdicts"
        case attachPhoto = "AttachPhoto"
        case detachPhoto = "DetachPhoto"
        case finishInspection = "FinishInspection"
        case skipInspection = "SkipInspection"
        case submitBatch = "SubmitBatch"
        case cancelBatch = "CancelBatch"
        case expireBatch = "ExpireBatch"
    }

    /// The command's type.
    public var kind: Kind {
        switch self {
        case .registerLocation: .registerLocation
        case .registerInspector: .registerInspector
        case .registerProduct: .registerProduct
        case .importDatasheet: .importDatasheet
        case .recordRuleCheck: .recordRuleCheck
        case .receiveProduct: .receiveProduct
        case .allocateBatch: .allocateBatch
        case .allocateAdHocTask: .allocateAdHocTask
        case .startCollection: .startCollection
        case .pauseCollection: .pauseCollection
        case .finishCollection: .finishCollection
        case .cancelCollection: .cancelCollection
        case .collectProduct: .collectProduct
        case .skipCollection: .skipCollection
        case .startInspection: .startInspection
        case .pauseInspection: .pauseInspection
        case .recordVerdicts: .recordVerdicts
        case .attachPhoto: .attachPhoto
        case .detachPhoto: .detachPhoto
        case .finishInspection: .finishInspection
        case .skipInspection: .skipInspection
        case .submitBatch: .submitBatch
        case .cancelBatch: .cancelBatch
        case .expireBatch: .expireBatch
        }
    }

    /// The command's `type` name, e.g. `StartCollection`.
    public var typeName: String { kind.rawValue }

    /// The batch the command acts on, if it names one (nil for allocations: the batch is new).
    public var batchID: String? {
        switch self {
        case .startCollection(let c): c.batchID
        case .pauseCollection(let c): c.batchID
        case .finishCollection(let c): c.batchID
        case .cancelCollection(let c): c.batchID
        case .collectProduct(let c): c.batchID
        case .submitBatch(let c): c.batchID
        case .cancelBatch(let c): c.batchID
        case .expireBatch(let c): c.batchID
        case .registerLocation, .registerInspector, .registerProduct, .importDatasheet, .recordRuleCheck,
            .receiveProduct, .allocateBatch, .allocateAdHocTask, .skipCollection, .startInspection,
            .pauseInspection, .recordVerdicts, .attachPhoto, .detachPhoto, .finishInspection, .skipInspection:
            nil
        }
    }

    /// The task the command acts on, if it names one.
    public var taskID: String? {
        switch self {
        case .collectProduct(let c): c.taskID
        case .skipCollection(let c): c.taskID
        case .startInspection(let c): c.taskID
        case .pauseInspection(let c): c.taskID
        case .recordVerdicts(let c): c.taskID
        case .attachPhoto(let c): c.taskID
        case .detachPhoto(let c): c.taskID
        case .finishInspection(let c): c.taskID
        case .skipInspection(let c): c.taskID
        case .registerLocation, .registerInspector, .registerProduct, .importDatasheet, .recordRuleCheck,
            .receiveProduct, .allocateBatch, .allocateAdHocTask, .startCollection, .pauseCollection,
            .finishCollection, .cancelCollection, .submitBatch, .cancelBatch, .expireBatch:
            nil
        }
    }

    /// The inspector a new batch or ad-hoc task is allocated to (nil for other commands).
    public var allocatedInspectorID: String? {
        switch self {
        case .allocateBatch(let c): c.inspectorID
        case .allocateAdHocTask(let c): c.inspectorID
        case .registerLocation, .registerInspector, .registerProduct, .importDatasheet, .recordRuleCheck,
            .receiveProduct, .startCollection, .pauseCollection, .finishCollection, .cancelCollection,
            .collectProduct, .skipCollection, .startInspection, .pauseInspection, .recordVerdicts, .attachPhoto,
            .detachPhoto, .finishInspection, .skipInspection, .submitBatch, .cancelBatch, .expireBatch:
            nil
        }
    }
}

extension InspectionCommand.Kind {
    /// The roles that may send a command of this type (the permission table's commands). An
    /// inspector's commands are further limited to their own work (``InspectionState/requireOwnWork(_:)``).
    public var senders: Set<UserRole> {
        switch self {
        case .registerLocation, .registerInspector: [.admin]
        case .registerProduct, .importDatasheet, .recordRuleCheck: [.steward, .admin]
        case .receiveProduct: [.receiver, .admin]
        case .allocateBatch, .allocateAdHocTask, .cancelBatch: [.inspector, .manager, .admin]
        // Collection and inspection work.
        case .startCollection, .pauseCollection, .finishCollection, .cancelCollection, .collectProduct,
            .skipCollection, .startInspection, .pauseInspection, .recordVerdicts, .attachPhoto, .detachPhoto,
            .finishInspection, .skipInspection, .submitBatch:
            [.inspector, .admin]
        case .expireBatch: []  // the server's own expiry only
        }
    }
}
