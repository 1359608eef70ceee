/// One event type the domain knows: its name in the log, the schema version it writes, every
/// version it reads (older ones upcast to the current shape), and — for events about one task —
/// the kind of ``TaskEvent`` the fast reader makes of it.
///
/// Entries are made with ``current(_:_:task:)`` and ``reading(_:upcast:)`` by each payload type
/// (``InspectionEventPayload/registered(as:)``) and collected, in case order, into
/// ``InspectionEvent/registry``; the decoder, the type lookup of replays and the schema tests are
/// derived from that list.
public struct EventType: Sendable {
    /// Decodes one version's payload into the current event.
    typealias Decoder = @Sendable (inout PayloadReader) throws(PayloadDecodingError) -> InspectionEvent

    /// The event type name stored in the log, e.g. `BatchAllocated`.
    public let name: String
    /// The schema version written today.
    public let currentVersion: Int
    /// The payload type written today.
    public let current: any EventPayload.Type
    /// Older payload types still read (and upcast).
    public private(set) var legacy: [any EventPayload.Type] = []
    /// For an event about one task: what the fast reader makes of it (nil for other events).
    public let taskEventKind: TaskEvent.Kind?
    /// The position in ``InspectionEvent/registry`` (a dense number, for tables indexed by type).
    public internal(set) var id = 0
    private var decoders: [(version: Int, decode: Decoder)]

    /// The event type whose current payload is `Payload`, made an ``InspectionEvent`` by `wrap`
    /// (the enum case); `task` for an event the fast task-event reader reads.
    public static func current<Payload: EventPayload>(
        _ payload: Payload.Type, _ wrap: @escaping @Sendable (Payload) -> InspectionEvent,
        task: TaskEvent.Kind? = nil
    ) -> EventType {
        EventType(
            name: Payload.eventType, currentVersion: Payload.schemaVersion, current: payload, taskEventKind: task,
            decoders: [
                (
                    Payload.schemaVersion,
                    {
                        @Sendable (reader: inout PayloadReader) throws(PayloadDecodingError) -> InspectionEvent in
                        wrap(try Payload(from: &reader))
                    }
                )
            ])
    }

    /// This type, also reading the older payload `Old` and upcasting it with `upcast`.
    public func reading<Old: EventPayload>(
        _ old: Old.Type, upcast: @escaping @Sendable (Old) -> InspectionEvent
    ) -> EventType {
        precondition(Old.eventType == name, "\(Old.self) is a version of \(Old.eventType), not of \(name)")
        var type = self
        type.legacy.append(old)
        type.decoders.append(
            (
                Old.schemaVersion,
                {
                    @Sendable (reader: inout PayloadReader) throws(PayloadDecodingError) -> InspectionEvent in
                    upcast(try Old(from: &reader))
                }
            ))
        return type
    }

    /// Every schema version this build reads.
    public var versions: [Int] { decoders.map(\.version).sorted() }

    /// Decodes `schemaVersion`'s payload from `reader`, upcast to the current shape.
    func decode(schemaVersion: Int, from reader: inout PayloadReader) throws(PayloadDecodingError) -> InspectionEvent {
        for decoder in decoders where decoder.version == schemaVersion {
            return try decoder.decode(&reader)
        }
        throw PayloadDecodingError(
            "schema version \(schemaVersion) of \(name) is not known to this build", eventType: name, offset: 0)
    }
}
