extension InspectionEvent {
    /// Every event type of the domain, once: name, versions, the decoder of each version (older
    /// ones upcast), and the task-event kind of the fast reader. The decoder, the replays' type
    /// lookup and the schema tests are derived from this list; a new event type is one entry.
    public static let registry: [EventType] = numbered([
        .current(AttributeVerdictRecorded.self, Self.attributeVerdictRecorded, task: .attributeVerdictRecorded)
            .reading(AttributeVerdictRecordedV1.self) { .attributeVerdictRecorded($0.upcast()) },
        .current(LocationRegistered.self, Self.locationRegistered),
        .current(InspectorRegistered.self, Self.inspectorRegistered),
        .current(ProductRegistered.self, Self.productRegistered),
        .current(DatasheetImported.self, Self.datasheetImported),
        .current(RuleCheckRecorded.self, Self.ruleCheckRecorded),
        .current(ProductReceived.self, Self.productReceived),
        .current(BatchAllocated.self, Self.batchAllocated),
        .current(AdHocTaskAllocated.self, Self.adHocTaskAllocated),
        .current(CollectionStarted.self, Self.collectionStarted),
        .current(CollectionPaused.self, Self.collectionPaused),
        .current(CollectionFinished.self, Self.collectionFinished),
        .current(CollectionCancelled.self, Self.collectionCancelled),
        .current(ProductCollected.self, Self.productCollected, task: .productCollected),
        .current(CollectionSkipped.self, Self.collectionSkipped, task: .collectionSkipped),
        .current(InspectionStarted.self, Self.inspectionStarted, task: .inspectionStarted),
        .current(InspectionPaused.self, Self.inspectionPaused, task: .inspectionPaused),
        .current(PhotoAttached.self, Self.photoAttached, task: .photoAttached),
        .current(InspectionFinished.self, Self.inspectionFinished, task: .inspectionFinished),
        .current(InspectionSkipped.self, Self.inspectionSkipped, task: .inspectionSkipped),
        .current(BatchSubmitted.self, Self.batchSubmitted),
        .current(BatchCancelled.self, Self.batchCancelled),
        .current(BatchExpired.self, Self.batchExpired),
    ])

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
