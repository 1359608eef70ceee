extension InspectionEvent {
    /// Every event type of the domain, once, in case order: name, versions, the decoder of each
    /// version (older ones upcast), and the task-event kind of the fast reader. Derived from the
    /// cases of the enum (`registeredTypes`, generated) and what each payload type declares
    /// (``InspectionEventPayload``); the decoder, the replays' type lookup and the schema tests
    /// are derived from it.
    public static let registry: [EventType] = numbered(registeredTypes)

    /// The registry's entries by name.
    private static let typesByName = Dictionary(uniqueKeysWithValues: registry.map { ($0.name, $0) })

    /// The registered type named `name`, nil for a type this build does not know.
    public static func registeredType(named name: String) -> EventType? { typesByName[name] }

    private static func numbered(_ types: [EventType]) -> [EventType] {
        types.enumerated().map { index, type in
            var type = type
            type.id = index
            return type
        }
    }
}
