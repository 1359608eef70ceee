extension InspectionEvent {
    /// Every event type name the domain decodes (current and legacy payloads share a name).
    public enum Kind: String, CaseIterable, Sendable {
        case attributeVerdictRecorded = "AttributeVerdictRecorded"
        case locationRegistered = "LocationRegistered"
        case inspectorRegistered = "InspectorRegistered"
        case productRegistered = "ProductRegistered"
        case datasheetImported = "DatasheetImported"
        case ruleCheckRecorded = "RuleCheckRecorded"
        case productReceived = "ProductReceived"
        case batchAllocated = "BatchAllocated"
        case adHocTaskAllocated = "AdHocTaskAllocated"
        case collectionStarted = "CollectionStarted"
        case collectionPaused = "CollectionPaused"
        case collectionFinished = "CollectionFinished"
        case collectionCancelled = "CollectionCancelled"
        case productCollected = "ProductCollected"
        case collectionSkipped = "CollectionSkipped"
        case inspectionStarted = "InspectionStarted"
        case inspectionPaused = "InspectionPaused"
        case photoAttached = "PhotoAttached"
        case inspectionFinished = "InspectionFinished"
        case inspectionSkipped = "InspectionSkipped"
        case batchSubmitted = "BatchSubmitted"
        case batchCancelled = "BatchCancelled"
        case batchExpired = "BatchExpired"
    }
}
