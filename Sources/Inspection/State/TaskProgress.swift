/// Where one task stands — the seed's collection and inspection statuses and the inspection
/// phase — and the transitions the task events make.
///
/// These are the progress rules, written once: ``InspectionState`` and the batch projection both
/// keep a `TaskProgress` per task and change it only through these methods, and both derive a
/// batch's status from ``BatchProgress``. (A drift test folds a generated history both ways and
/// compares every row.)
public struct TaskProgress: Sendable, Hashable {
    /// Collection status 0–3.
    public private(set) var collection: CollectionStatus
    /// Why collection was skipped (status 3 only).
    public private(set) var skipReason: SkipReason?
    /// Inspection status 1–4, once collected.
    public private(set) var inspection: InspectionStatus?
    /// Whether an inspection is under way or paused (status 1 only).
    public private(set) var phase: InspectionState.InspectionPhase

    /// A task as stored (a projection row read back); transitions go through the methods.
    public init(
        collection: CollectionStatus, skipReason: SkipReason? = nil, inspection: InspectionStatus? = nil,
        phase: InspectionState.InspectionPhase = .notStarted
    ) {
        self.collection = collection
        self.skipReason = skipReason
        self.inspection = inspection
        self.phase = phase
    }

    /// A task of a batch, just allocated: pending collection.
    public static let allocatedInBatch = TaskProgress(collection: .pendingCollection)
    /// An ad-hoc task, just allocated: the inspector holds the product, ready for inspection.
    public static let allocatedAdHoc = TaskProgress(collection: .collected, inspection: .ready)

    /// Whether the task needs no more work: collection skipped, or inspection passed, failed or skipped.
    public var isResolved: Bool {
        collection == .skipped || (inspection.map { $0 != .ready } ?? false)
    }

    /// Whether the task was inspected to a result (passed or failed), so it needs a photo.
    public var isInspected: Bool { inspection == .passed || inspection == .failed }

    /// Whether the task's inspection has begun (it moves its batch to status 3): a resolved task
    /// that reached inspection, or an open one started or paused.
    public var hasBegunInspection: Bool { isResolved ? inspection != nil : phase != .notStarted }

    /// `ProductCollected`: collected, ready for inspection.
    public mutating func collect() {
        collection = .collected
        inspection = .ready
    }

    /// `CollectionSkipped`: resolved without inspection.
    public mutating func skipCollection(_ reason: SkipReason) {
        collection = .skipped
        skipReason = reason
    }

    /// `InspectionStarted`.
    public mutating func startInspection() { phase = .inProgress }

    /// `InspectionPaused`.
    public mutating func pauseInspection() { phase = .paused }

    /// `InspectionFinished`: passed or failed.
    public mutating func finishInspection(_ result: InspectionStatus) {
        inspection = result
        phase = .notStarted
    }

    /// `InspectionSkipped`.
    public mutating func skipInspection() {
        inspection = .skipped
        phase = .notStarted
    }

    /// The batch was cancelled or expired: an open task goes back to "not allocated" (its
    /// product is released); a resolved one keeps its result. Returns whether the task changed.
    @discardableResult
    public mutating func returnWithClosedBatch() -> Bool {
        guard !isResolved else { return false }
        collection = .notAllocated
        inspection = nil
        phase = .notStarted
        return true
    }
}
