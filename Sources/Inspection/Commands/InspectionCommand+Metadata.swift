/// Facts about each command that hold whatever the state: which batch and task it touches and whom
/// an allocation is for. Permission rules are built on them.
///
/// Every switch names every case, without `default`: a new command does not compile until its
/// facts are decided here.
extension InspectionCommand {
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
            .pauseInspection, .recordVerdicts, .attachPhoto, .finishInspection, .skipInspection:
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
            .finishInspection, .skipInspection, .submitBatch, .cancelBatch, .expireBatch:
            nil
        }
    }
}
