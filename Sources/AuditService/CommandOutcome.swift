import AuditLog
import Inspection

/// What happened to one command: appended, answered as a repeat, or refused.
public struct CommandOutcome: Sendable, Hashable {
    /// How the command ended.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Its events were appended now.
        case accepted
        /// The command id was seen before; this is the original result and nothing was appended.
        case duplicate
        /// The command did not fit the state; nothing was appended.
        case refused
    }

    /// The command's id.
    public var commandID: String
    /// The command's type, e.g. `StartCollection`.
    public var commandType: String
    /// How it ended.
    public var status: Status
    /// The stream written (accepted, duplicate).
    public var stream: String?
    /// The log positions of its events (accepted, duplicate).
    public var positions: ClosedRange<UInt64>?
    /// The stream's version after its events (accepted, duplicate).
    public var streamVersion: UInt64?
    /// The event types appended (accepted only).
    public var eventTypes: [String]
    /// Why it was refused (refused only).
    public var refusal: CommandRefusal?
    /// The id of what the command created: the new batch of an `AllocateBatch` ("B42"), the new
    /// task of an `AllocateAdHocTask`; nil for other commands (accepted and duplicate alike).
    public var createdID: String?

    public init(
        commandID: String, commandType: String, status: Status, stream: String? = nil,
        positions: ClosedRange<UInt64>? = nil, streamVersion: UInt64? = nil, eventTypes: [String] = [],
        refusal: CommandRefusal? = nil, createdID: String? = nil
    ) {
        self.createdID = createdID
        self.commandID = commandID
        self.commandType = commandType
        self.status = status
        self.stream = stream
        self.positions = positions
        self.streamVersion = streamVersion
        self.eventTypes = eventTypes
        self.refusal = refusal
    }

    /// One line for people: `accepted StartCollection c12 → batch-B3 v2 @ 1041`.
    public var summary: String {
        switch status {
        case .accepted, .duplicate:
            let where_ = "\(stream ?? "?") v\(streamVersion ?? 0)"
            let at = positions.map { $0.count == 1 ? "@\($0.lowerBound)" : "@\($0.lowerBound)-\($0.upperBound)" } ?? ""
            let created = createdID.map { " created \($0)" } ?? ""
            return "\(status.rawValue) \(commandType) \(commandID) -> \(where_) \(at)\(created)"
        case .refused:
            return "refused \(commandID): \(refusal?.description ?? commandType)"
        }
    }
}

extension InspectionEvent {
    /// The batch or ad-hoc task this event creates (an outcome's ``CommandOutcome/createdID``),
    /// nil for any other event.
    var createdID: String? {
        switch self {
        case .batchAllocated(let allocated): allocated.batchID
        case .adHocTaskAllocated(let allocated): allocated.taskID
        default: nil
        }
    }
}
