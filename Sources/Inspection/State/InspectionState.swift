import Chronology
import HashTreeCollections

/// Everything the domain needs to decide a command: the fold of every event in the log.
///
/// Build it with ``apply(_:at:)`` in log order; two states built from the same events are equal.
/// The large maps are persistent hash tries (`TreeDictionary`): a copy of the state, such as the
/// one the service's group writer starts from after a failed group, costs nothing until changed,
/// and a change copies only the path to the entry, not the whole catalogue.
public struct InspectionState: Sendable, Hashable {
    /// Locations by id.
    public internal(set) var locations: [String: Location] = [:]
    /// People by id.
    public internal(set) var inspectors: [String: Inspector] = [:]
    /// Products by GTIN-14.
    public internal(set) var products: TreeDictionary<String, Product> = [:]
    /// Batches by id.
    public internal(set) var batches: TreeDictionary<String, Batch> = [:]
    /// Tasks (batch and ad-hoc) by id.
    public internal(set) var tasks: TreeDictionary<String, Task> = [:]
    /// Which open task holds each product (GTIN-14 → task id); a held product is never allocated.
    public internal(set) var holds: TreeDictionary<String, String> = [:]
    /// GTINs stocked or received at each location.
    public internal(set) var productsByLocation: [String: Set<String>] = [:]
    /// Every batch id allocated to each inspector, oldest first.
    public internal(set) var batchIDsByInspector: [String: [String]] = [:]
    /// How many batches were ever allocated (numbers the next batch id).
    public internal(set) var batchCount = 0
    /// How many ad-hoc tasks were ever allocated (numbers the next ad-hoc task id).
    public internal(set) var adHocCount = 0
    /// Every ad-hoc task id allocated to each inspector, oldest first (ad-hoc tasks have no batch to list them).
    public internal(set) var adHocTaskIDsByInspector: [String: [String]] = [:]
    /// Every (location, mode)'s work queue in allocation order (derived from the products).
    var allocationQueues = AllocationQueues()

    /// An empty state (an empty log).
    public init() {}

    /// A place.
    public struct Location: Sendable, Hashable {
        public var id: String
        public var name: String
        public var kind: LocationKind
    }

    /// A person.
    public struct Inspector: Sendable, Hashable {
        public var id: String
        public var name: String
        public var role: InspectorRole
    }

    /// A pending new-product reception.
    public struct Reception: Sendable, Hashable {
        public var receptionID: String
        public var locationID: String
        public var priority: ReceptionPriority
        public var inspectBefore: Timestamp?
        public var receivedAt: Timestamp
    }

    /// A product with what allocation and inspection need to know about it.
    public struct Product: Sendable, Hashable {
        public var registration: ProductRegistered
        /// The GTIN-14.
        public var gtin: String { registration.gtin }
        /// The latest datasheet's id, if any was imported.
        public var datasheetID: String?
        /// The latest datasheet's attribute paths, in datasheet order.
        public var attributePaths: [String] = []
        /// The same paths as a set, for membership checks.
        public var attributeSet: Set<String> = []
        /// The latest datasheet's values, in the order of `attributePaths` (what the inspector compares).
        public var attributeValues: [String] = []
        /// The reception waiting for a new-product inspection, if any.
        public var pendingReception: Reception?
        /// The SHA-256 of the latest photo of a passed inspection: how the product looks.
        public var referencePhoto: String?
        /// The shelf the latest received sample was stored on (its scanned shelf code).
        public var shelf: String?
        /// When an inspection of it last finished.
        public var lastInspectedAt: Timestamp?
        /// That inspection's result (2 passed or 3 failed).
        public var lastResult: InspectionStatus?
        /// How many inspections finished.
        public var inspectionCount = 0

        /// Records a finished inspection of the product (one access to the product per inspection).
        mutating func recordInspection(of task: Task, result: InspectionStatus, at time: Timestamp) {
            lastInspectedAt = time
            lastResult = result
            inspectionCount += 1
            if result == .passed, let photo = task.photos.last { referencePhoto = photo }
            if task.mode == .newProduct { pendingReception = nil }
        }
    }

    /// What an inspector measured or read, and noted, with one attribute's verdict.
    public struct VerdictDetail: Sendable, Hashable {
        public var measuredValue: String?
        public var note: String?
    }

    /// A batch of tasks held by one inspector.
    public struct Batch: Sendable, Hashable {
        public var id: String
        public var inspectorID: String
        public var locationID: String
        public var mode: InspectionMode
        /// The seed's `batchStatus`, 0–7.
        public var status: BatchStatus
        /// Whether collection is paused (status stays 1).
        public var collectionPaused: Bool
        public var allocatedAt: Timestamp
        public var expiresAt: Timestamp
        /// Whether status 7 came from expiry rather than a cancellation.
        public var expired: Bool
        /// The tasks in suggested order.
        public var taskIDs: [String]
    }

    /// Where a task's inspection is within inspection status 1 (ready).
    public enum InspectionPhase: Int, Sendable, Hashable {
        case notStarted = 0
        case inProgress = 1
        case paused = 2
    }

    /// One unit of inspection work: one product.
    public struct Task: Sendable, Hashable {
        public var id: String
        /// The batch, or nil for an ad-hoc task.
        public var batchID: String?
        public var inspectorID: String
        public var locationID: String
        public var gtin: String
        public var mode: InspectionMode
        /// Collection and inspection status and phase, changed only by ``TaskProgress``'s transitions.
        public internal(set) var progress: TaskProgress
        /// What was scanned at collection.
        public var scanned: String?
        /// Verdicts so far (cleared when the inspection finishes; the counts remain).
        public var verdicts: [String: Verdict] = [:]
        /// What the inspector last measured or read and noted, by path, for the verdicts so far (only
        /// the paths a verdict gave either for: most give neither).
        public var verdictDetails: [String: VerdictDetail] = [:]
        public var passedCount = 0
        public var warningCount = 0
        public var failureCount = 0
        public var unableCount = 0
        /// SHA-256 of attached photos, in order.
        public var photos: [String] = []

        /// Records one attribute's verdict, and what was measured and the note when the verdict
        /// gives them (a verdict without them keeps the last ones given: most verdicts carry
        /// neither, and this runs for every attribute of every inspection).
        mutating func record(_ event: AttributeVerdictRecorded) {
            verdicts[event.path] = event.verdict
            guard event.measuredValue != nil || event.note != nil else { return }
            var detail = verdictDetails[event.path] ?? VerdictDetail()
            if let measuredValue = event.measuredValue { detail.measuredValue = measuredValue }
            if let note = event.note { detail.note = note }
            verdictDetails[event.path] = detail
        }

        /// The seed's `collectionStatus`, 0–3 (0 once released by cancellation or expiry).
        public var collectionStatus: CollectionStatus { progress.collection }
        /// Why collection was skipped.
        public var skipReason: SkipReason? { progress.skipReason }
        /// The seed's `inspectionStatus`, 1–4; nil until collected.
        public var inspectionStatus: InspectionStatus? { progress.inspection }
        /// Where an inspection in status 1 stands.
        public var phase: InspectionPhase { progress.phase }

        /// Whether the task needs no more work (``TaskProgress/isResolved``).
        public var isResolved: Bool { progress.isResolved }

        /// Whether the task was inspected to a result, so it needs a photo (``TaskProgress/isInspected``).
        public var isInspected: Bool { progress.isInspected }

        /// A short description for refusals, e.g. `task B3-2 (collection 2 collected, inspection 1 ready)`.
        public var stateDescription: String {
            var text = "task \(id) (collection \(collectionStatus.label)"
            if let inspectionStatus {
                text += ", inspection \(inspectionStatus.label)"
                if inspectionStatus == .ready {
                    text += phase == .inProgress ? " in progress" : phase == .paused ? " paused" : " not started"
                }
            }
            return text + ")"
        }
    }
}

extension InspectionState.Batch {
    /// A short description for refusals, e.g. `batch B3 (status 1 collection started, paused)`.
    public var stateDescription: String {
        "batch \(id) (status \(status.label)\(status == .collectionStarted && collectionPaused ? ", paused" : "")"
            + "\(expired ? ", expired" : ""))"
    }
}
