import Chronology

/// What a command decided: the events to append, and the stream they belong to.
public struct Decision: Sendable, Hashable {
    /// The stream the events are appended to, with its expected version.
    public var stream: String
    /// The events, in order (never empty).
    public var events: [InspectionEvent]

    public init(stream: String, events: [InspectionEvent]) {
        self.stream = stream
        self.events = events
    }
}

/// A command that does not fit the current state; nothing was appended.
public struct CommandRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Broad kinds of refusal, for HTTP status codes and tests.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The command refers to something that does not exist.
        case notFound
        /// The thing exists but is in a state where the command does not apply.
        case invalidState
        /// A field has a value the command does not accept.
        case invalidInput
        /// The actor may not do this.
        case notPermitted
        /// The batch or task is another inspector's (or the allocation is for another inspector):
        /// only its inspector may act on it.
        case notOwnWork
        /// The command id was used before for a different command (HTTP 409); send it with a new id.
        case commandIDReused
        /// A submission whose batch names photos not uploaded yet (listed in ``CommandRefusal/missingPhotos``).
        case photosMissing
    }

    /// The kind of refusal.
    public var code: Code
    /// The command's type name, e.g. `SubmitBatch`.
    public var command: String
    /// The current state of what the command is about, e.g. `batch B3 (status 4 inspection completed)`.
    public var state: String
    /// Why it was refused, and what would make it acceptable.
    public var reason: String
    /// `photosMissing`: the SHA-256 of each photo the batch names that is not uploaded, once each.
    public var missingPhotos: [String] = []

    public init(_ code: Code, command: String, state: String, reason: String) {
        self.code = code
        self.command = command
        self.state = state
        self.reason = reason
    }

    /// `SubmitBatch refused: batch B3 (status 4 inspection completed): …`
    public var description: String { "\(command) refused: \(state): \(reason)" }
}

/// What a decision may depend on besides the state: the time and the policies.
public struct DecisionContext: Sendable, Hashable {
    /// The server's current time (expiry, allocation).
    public var now: Timestamp
    /// How allocation picks and sizes batches.
    public var allocation: AllocationPolicy
    /// Which photos are accepted.
    public var photos: PhotoPolicy

    public init(now: Timestamp, allocation: AllocationPolicy = AllocationPolicy(), photos: PhotoPolicy = PhotoPolicy())
    {
        self.now = now
        self.allocation = allocation
        self.photos = photos
    }
}

/// The limits on attached photos.
public struct PhotoPolicy: Sendable, Hashable {
    /// The largest image accepted, in bytes (default 20 MiB).
    public var maxBytes: Int
    /// The accepted content types.
    public var contentTypes: Set<String>

    public init(
        maxBytes: Int = 20 * 1024 * 1024, contentTypes: Set<String> = ["image/jpeg", "image/png", "image/heic"]
    ) {
        self.maxBytes = maxBytes
        self.contentTypes = contentTypes
    }
}

/// The stream names of the domain.
public enum InspectionStreams {
    /// Every allocation (batches and ad-hoc tasks): one stream, so two allocations can never
    /// hand out the same product concurrently.
    public static let allocations = "allocations"
    /// A location's registration.
    public static func location(_ id: String) -> String { "location-\(id)" }
    /// A person's registration.
    public static func inspector(_ id: String) -> String { "inspector-\(id)" }
    /// A product's registration, datasheets, rule checks and receptions.
    public static func product(_ gtin: String) -> String { "product-\(gtin)" }
    /// A batch's life after allocation (collection, inspections, photos, submission).
    public static func batch(_ id: String) -> String { "batch-\(id)" }
    /// An ad-hoc task's life after allocation.
    public static func adHocTask(_ id: String) -> String { "adhoc-\(id)" }
}
