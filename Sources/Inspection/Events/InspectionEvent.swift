/// Every event of the inspection domain, at its current schema version.
///
/// Older versions are upcast when decoded (see ``decode(eventType:schemaVersion:payload:)``), so
/// code that folds events only ever sees the current shape. Each case carries an
/// ``InspectionEventPayload``; `payload` and the registry are generated from the case lines below
/// (`tools/generate-event-registry`), so a new event type is its file, its schema and one case here.
public enum InspectionEvent: Sendable, Hashable {
    /// See ``AttributeVerdictRecorded``.
    case attributeVerdictRecorded(AttributeVerdictRecorded)
    /// See ``LocationRegistered``.
    case locationRegistered(LocationRegistered)
    /// See ``InspectorRegistered``.
    case inspectorRegistered(InspectorRegistered)
    /// See ``ProductRegistered``.
    case productRegistered(ProductRegistered)
    /// See ``DatasheetImported``.
    case datasheetImported(DatasheetImported)
    /// See ``RuleCheckRecorded``.
    case ruleCheckRecorded(RuleCheckRecorded)
    /// See ``ProductReceived``.
    case productReceived(ProductReceived)
    /// See ``BatchAllocated``.
    case batchAllocated(BatchAllocated)
    /// See ``AdHocTaskAllocated``.
    case adHocTaskAllocated(AdHocTaskAllocated)
    /// See ``CollectionStarted``.
    case collectionStarted(CollectionStarted)
    /// See ``CollectionPaused``.
    case collectionPaused(CollectionPaused)
    /// See ``CollectionFinished``.
    case collectionFinished(CollectionFinished)
    /// See ``CollectionCancelled``.
    case collectionCancelled(CollectionCancelled)
    /// See ``ProductCollected``.
    case productCollected(ProductCollected)
    /// See ``CollectionSkipped``.
    case collectionSkipped(CollectionSkipped)
    /// See ``InspectionStarted``.
    case inspectionStarted(InspectionStarted)
    /// See ``InspectionPaused``.
    case inspectionPaused(InspectionPaused)
    /// See ``PhotoAttached``.
    case photoAttached(PhotoAttached)
    /// See ``InspectionFinished``.
    case inspectionFinished(InspectionFinished)
    /// See ``InspectionSkipped``.
    case inspectionSkipped(InspectionSkipped)
    /// See ``BatchSubmitted``.
    case batchSubmitted(BatchSubmitted)
    /// See ``BatchCancelled``.
    case batchCancelled(BatchCancelled)
    /// See ``BatchExpired``.
    case batchExpired(BatchExpired)

    /// Every payload type at its current version, in registry order.
    public static var currentTypes: [any EventPayload.Type] { registry.map(\.current) }

    /// Payload types that are only read (older versions, upcast on decode).
    public static var legacyTypes: [any EventPayload.Type] { registry.flatMap(\.legacy) }

    /// The event type name stored in the log.
    public var eventType: String { type(of: payload).eventType }

    /// The schema version written for this event.
    public var schemaVersion: Int { type(of: payload).schemaVersion }

    /// The binary payload.
    public func encoded() -> [UInt8] { payload.encoded() }

    /// Decodes a payload written with any known version of `eventType`, upcast to the current one.
    ///
    /// Throws when the type or version is unknown, the payload is truncated, holds an invalid code,
    /// or has bytes left over.
    public static func decode(
        eventType: String, schemaVersion: Int, payload: UnsafeRawBufferPointer
    ) throws(PayloadDecodingError) -> InspectionEvent {
        guard let type = registeredType(named: eventType) else {
            throw PayloadDecodingError(
                "unknown event type '\(eventType)'", eventType: eventType, offset: 0, isUnknownType: true)
        }
        return try decode(type, schemaVersion: schemaVersion, payload: payload)
    }

    /// Like ``decode(eventType:schemaVersion:payload:)`` with the type already resolved: for
    /// replays that decode many records, and resolve each type name once.
    public static func decode(
        _ type: EventType, schemaVersion: Int, payload: UnsafeRawBufferPointer
    ) throws(PayloadDecodingError) -> InspectionEvent {
        var reader = PayloadReader(payload)
        let event: InspectionEvent
        do throws(PayloadDecodingError) {
            event = try type.decode(schemaVersion: schemaVersion, from: &reader)
        } catch {
            var error = error
            if error.eventType.isEmpty { error.eventType = "\(type.name) v\(schemaVersion)" }
            throw error
        }
        guard reader.isAtEnd else {
            throw PayloadDecodingError(
                "\(payload.count - reader.offset) unexpected bytes after the last field",
                eventType: "\(type.name) v\(schemaVersion)", offset: reader.offset)
        }
        return event
    }

    /// Decodes a payload held in an array; see ``decode(eventType:schemaVersion:payload:)``.
    public static func decode(
        eventType: String, schemaVersion: Int, payload: [UInt8]
    ) throws(PayloadDecodingError) -> InspectionEvent {
        let result = payload.withUnsafeBytes { buffer in
            Result { () throws(PayloadDecodingError) in
                try decode(eventType: eventType, schemaVersion: schemaVersion, payload: buffer)
            }
        }
        return try result.get()
    }
}
