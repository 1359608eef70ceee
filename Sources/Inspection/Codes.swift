/// The codes of the inspection domain, exactly as the seed (chapter 3.1) numbers them.
///
/// Every code is stored and exchanged as its integer raw value; the names are for readers.

/// `batchStatus` of an inspection batch (seed table 1).
public enum BatchStatus: Int, Sendable, Hashable, Codable, CaseIterable {
    case assigned = 0
    case collectionStarted = 1
    case collectionCompleted = 2
    case inspectionStarted = 3
    case inspectionCompleted = 4
    case readyForSubmission = 5
    case submitted = 6
    case cancelled = 7

    /// Whether the batch still holds its open tasks (not submitted, cancelled or expired).
    public var isActive: Bool { rawValue <= 5 }

    /// `2 inspection started`-style text for messages.
    public var label: String {
        switch self {
        case .assigned: "0 assigned"
        case .collectionStarted: "1 collection started"
        case .collectionCompleted: "2 collection completed"
        case .inspectionStarted: "3 inspection started"
        case .inspectionCompleted: "4 inspection completed"
        case .readyForSubmission: "5 ready for submission"
        case .submitted: "6 submitted"
        case .cancelled: "7 cancelled"
        }
    }
}

/// `collectionStatus` of a task (seed table 2).
public enum CollectionStatus: Int, Sendable, Hashable, Codable, CaseIterable {
    case notAllocated = 0
    case pendingCollection = 1
    case collected = 2
    case skipped = 3

    /// Text for messages.
    public var label: String {
        switch self {
        case .notAllocated: "0 not allocated"
        case .pendingCollection: "1 pending collection"
        case .collected: "2 collected"
        case .skipped: "3 skipped"
        }
    }
}

/// Why a collection was skipped; a skip releases the product.
public enum SkipReason: Int, Sendable, Hashable, Codable, CaseIterable {
    case unableToCollect = 0
    case outOfStock = 1
    case noLongerAvailable = 2
}

/// `inspectionStatus` of a collected task (seed table 3); a task has none until it is collected.
public enum InspectionStatus: Int, Sendable, Hashable, Codable, CaseIterable {
    case ready = 1
    case passed = 2
    case failed = 3
    case skipped = 4

    /// Text for messages.
    public var label: String {
        switch self {
        case .ready: "1 ready"
        case .passed: "2 passed"
        case .failed: "3 failed"
        case .skipped: "4 skipped"
        }
    }
}

/// The result of one attribute (seed table 4); the rule engine uses the same codes.
public enum Verdict: Int, Sendable, Hashable, Codable, CaseIterable {
    case unableToValidate = 0
    case passed = 1
    case warning = 2
    case failure = 3
}

/// The inspection modes of the seed (chapter 4.2.4); ad-hoc tasks have no batch.
public enum InspectionMode: Int, Sendable, Hashable, Codable, CaseIterable {
    case wholesale = 0
    case newProduct = 1
    case existingProduct = 2
    case reinspection = 3
    case adHoc = 4
}

/// The trade-item level of a product.
public enum ProductType: Int, Sendable, Hashable, Codable, CaseIterable {
    case base = 0
    case `case` = 1
    case pallet = 2
}

/// What kind of place a location is.
public enum LocationKind: Int, Sendable, Hashable, Codable, CaseIterable {
    case store = 0
    case warehouse = 1
    case inspectionCentre = 2
}

/// What a person may do.
public enum InspectorRole: Int, Sendable, Hashable, Codable, CaseIterable {
    case inspector = 0
    case receiver = 1
    case manager = 2
}

/// The condition a product arrived in at an inspection centre.
public enum ProductCondition: Int, Sendable, Hashable, Codable, CaseIterable {
    case good = 0
    case damaged = 1
}

/// The priority a receiver gives a product; higher is inspected first.
public enum ReceptionPriority: Int, Sendable, Hashable, Codable, CaseIterable {
    case normal = 0
    case high = 1
    case urgent = 2
}

/// What happens to a received sample after its inspection.
public enum DecommissionType: Int, Sendable, Hashable, Codable, CaseIterable {
    case donate = 0
    case dispose = 1
    case `return` = 2
}
