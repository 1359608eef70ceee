/// The current version of an event of the inspection domain: what its file declares so that the
/// registry entry and the type-erased ``InspectionEvent/payload`` can be derived.
///
/// At build time the EventRegistryPlugin finds the types in `Sources/Inspection/Events` that conform
/// to this protocol (directly or through a protocol declared there that refines it) and generates
/// ``InspectionEvent`` from them: one case per type, the `payload` switch and the list of payload
/// types the registry is made of, each entry made by ``registered(as:)``. A new event type is
/// therefore its file and its schema; nothing is listed by hand.
public protocol InspectionEventPayload: EventPayload {
    /// For an event about one task: what the fast task-event reader makes of it (nil by default).
    static var taskEventKind: TaskEvent.Kind? { get }

    /// This type's registry entry, with `embed` (its case of ``InspectionEvent``) as the way
    /// into the enum. The default reads the current version only; a type with older versions
    /// chains `.reading(Old.self) { embed($0.upcast()) }`.
    static func registered(as embed: @escaping @Sendable (Self) -> InspectionEvent) -> EventType
}

extension InspectionEventPayload {
    /// Not an event about one task.
    public static var taskEventKind: TaskEvent.Kind? { nil }

    /// The current version only.
    public static func registered(as embed: @escaping @Sendable (Self) -> InspectionEvent) -> EventType {
        .current(Self.self, embed, task: taskEventKind)
    }
}
