/// What a batch's tasks add up to, and the statuses 2–5 that follow from it.
///
/// ``InspectionState`` counts its tasks when it settles a batch; the batch projection keeps the
/// counts up to date task event by task event. Both count with ``add(_:photos:)`` and derive the
/// status with ``status(from:)``, so the rule exists once.
public struct BatchProgress: Sendable, Hashable {
    /// Tasks in the batch.
    public var taskCount: Int
    /// Tasks resolved (see ``TaskProgress/isResolved``).
    public private(set) var resolved = 0
    /// Tasks whose inspection has begun (see ``TaskProgress/hasBegunInspection``).
    public private(set) var begun = 0
    /// Tasks inspected to a result that have no photo yet.
    public private(set) var inspectedWithoutPhoto = 0

    /// No task counted yet, out of `taskCount`.
    public init(taskCount: Int) { self.taskCount = taskCount }

    /// Counts as stored (a projection row read back).
    public init(taskCount: Int, resolved: Int, begun: Int, inspectedWithoutPhoto: Int) {
        self.taskCount = taskCount
        self.resolved = resolved
        self.begun = begun
        self.inspectedWithoutPhoto = inspectedWithoutPhoto
    }

    /// Counts `task`, which has `photos` photos.
    public mutating func add(_ task: TaskProgress, photos: Int) { count(task, photos: photos, sign: 1) }

    /// Uncounts `task` as it was (with `photos` photos) before it changed.
    public mutating func remove(_ task: TaskProgress, photos: Int) { count(task, photos: photos, sign: -1) }

    private mutating func count(_ task: TaskProgress, photos: Int, sign: Int) {
        if task.isResolved { resolved += sign }
        if task.hasBegunInspection { begun += sign }
        if task.isInspected && photos == 0 { inspectedWithoutPhoto += sign }
    }

    /// The status a batch at `status` has with these tasks: statuses 2–5 follow from them — 3 once
    /// any inspection began, 4 when every task is resolved, 5 when in addition every inspected
    /// task has a photo; the other statuses are set by their own events and stay.
    public func status(from status: BatchStatus) -> BatchStatus {
        guard (2...5).contains(status.rawValue) else { return status }
        if resolved >= taskCount { return inspectedWithoutPhoto > 0 ? .inspectionCompleted : .readyForSubmission }
        return begun > 0 ? .inspectionStarted : .collectionCompleted
    }
}
