/// Every event of the inspection domain, at its current schema version.
///
/// Older versions are upcast when decoded (see ``decode(eventType:schemaVersion:payload:)``), so
/// code that folds events only ever sees the current shape.
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

    /// Every payload type at its current version, in declaration order.
    public static let currentTypes: [any EventPayload.Type] = [
        AttributeVerdictRecorded.self,
        LocationRegistered.self,
        InspectorRegistered.self,
        ProductRegistered.self,
        DatasheetImported.self,
        RuleCheckRecorded.self,
        ProductReceived.self,
        BatchAllocated.self,
        AdHocTaskAllocated.self,
        CollectionStarted.self,
        CollectionPaused.self,
        CollectionFinished.self,
        CollectionCancelled.self,
        ProductCollected.self,
        CollectionSkipped.self,
        InspectionStarted.self,
        InspectionPaused.self,
        PhotoAttached.self,
        InspectionFinished.self,
        InspectionSkipped.self,
        BatchSubmitted.self,
        BatchCancelled.self,
        BatchExpired.self,
    ]

    /// Payload types that are only read (older versions, upcast on decode).
    public static let legacyTypes: [any EventPayload.Type] = [AttributeVerdictRecordedV1.self]

    /// The payload, type-erased.
    public var payload: any EventPayload {
        switch self {
        case .attributeVerdictRecorded(let event): event
        case .locationRegistered(let event): event
        case .inspectorRegistered(let event): event
        case .productRegistered(let event): event
        case .datasheetImported(let event): event
        case .ruleCheckRecorded(let event): event
        case .productReceived(let event): event
        case .batchAllocated(let event): event
        case .adHocTaskAllocated(let event): event
        case .collectionStarted(let event): event
        case .collectionPaused(let event): event
        case .collectionFinished(let event): event
        case .collectionCancelled(let event): event
        case .productCollected(let event): event
        case .collectionSkipped(let event): event
        case .inspectionStarted(let event): event
        case .inspectionPaused(let event): event
        case .photoAttached(let event): event
        case .inspectionFinished(let event): event
        case .inspectionSkipped(let event): event
        case .batchSubmitted(let event): event
        case .batchCancelled(let event): event
        case .batchExpired(let event): event
        }
    }

    /// The event type name stored in the log.
    public var eventType: String { type(of: payload).eventType }

    /// The schema version written for this event.
    public var schemaVersion: Int { type(of: payload).schemaVersion }

    /// The binary payload.
    public func encoded() -> [UInt8] {
        var writer = PayloadWriter()
        switch self {
        case .attributeVerdictRecorded(let event): event.encode(into: &writer)
        case .locationRegistered(let event): event.encode(into: &writer)
        case .inspectorRegistered(let event): event.encode(into: &writer)
        case .productRegistered(let event): event.encode(into: &writer)
        case .datasheetImported(let event): event.encode(into: &writer)
        case .ruleCheckRecorded(let event): event.encode(into: &writer)
        case .productReceived(let event): event.encode(into: &writer)
        case .batchAllocated(let event): event.encode(into: &writer)
        case .adHocTaskAllocated(let event): event.encode(into: &writer)
        case .collectionStarted(let event): event.encode(into: &writer)
        case .collectionPaused(let event): event.encode(into: &writer)
        case .collectionFinished(let event): event.encode(into: &writer)
        case .collectionCancelled(let event): event.encode(into: &writer)
        case .productCollected(let event): event.encode(into: &writer)
        case .collectionSkipped(let event): event.encode(into: &writer)
        case .inspectionStarted(let event): event.encode(into: &writer)
        case .inspectionPaused(let event): event.encode(into: &writer)
        case .photoAttached(let event): event.encode(into: &writer)
        case .inspectionFinished(let event): event.encode(into: &writer)
        case .inspectionSkipped(let event): event.encode(into: &writer)
        case .batchSubmitted(let event): event.encode(into: &writer)
        case .batchCancelled(let event): event.encode(into: &writer)
        case .batchExpired(let event): event.encode(into: &writer)
        }
        return writer.bytes
    }

    /// Decodes a payload written with any known version of `eventType`, upcast to the current one.
    ///
    /// Throws when the type or version is unknown, the payload is truncated, holds an invalid code,
    /// or has bytes left over.
    public static func decode(
        eventType: String, schemaVersion: Int, payload: UnsafeRawBufferPointer
    ) throws(PayloadDecodingError) -> InspectionEvent {
        guard let kind = Kind(rawValue: eventType) else {
            throw PayloadDecodingError(
                "unknown event type '\(eventType)'", eventType: eventType, offset: 0, isUnknownType: true)
        }
        return try decode(kind: kind, schemaVersion: schemaVersion, payload: payload)
    }

    /// Like ``decode(eventType:schemaVersion:payload:)`` with the type already resolved: for
    /// replays that decode many records, and resolve each type name once.
    public static func decode(
        kind: Kind, schemaVersion: Int, payload: UnsafeRawBufferPointer
    ) throws(PayloadDecodingError) -> InspectionEvent {
        let eventType = kind.rawValue
        var reader = PayloadReader(payload)
        let event: InspectionEvent
        do throws(PayloadDecodingError) {
            switch kind {
            case .attributeVerdictRecorded:
                switch schemaVersion {
                case 2: event = .attributeVerdictRecorded(try AttributeVerdictRecorded(from: &reader))
                case 1: event = .attributeVerdictRecorded(try AttributeVerdictRecordedV1(from: &reader).upcast())
                default: throw unknownVersion(eventType, schemaVersion)
                }
            case .locationRegistered:
                guard schemaVersion == LocationRegistered.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .locationRegistered(try LocationRegistered(from: &reader))
            case .inspectorRegistered:
                guard schemaVersion == InspectorRegistered.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .inspectorRegistered(try InspectorRegistered(from: &reader))
            case .productRegistered:
                guard schemaVersion == ProductRegistered.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .productRegistered(try ProductRegistered(from: &reader))
            case .datasheetImported:
                guard schemaVersion == DatasheetImported.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .datasheetImported(try DatasheetImported(from: &reader))
            case .ruleCheckRecorded:
                guard schemaVersion == RuleCheckRecorded.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .ruleCheckRecorded(try RuleCheckRecorded(from: &reader))
            case .productReceived:
                guard schemaVersion == ProductReceived.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .productReceived(try ProductReceived(from: &reader))
            case .batchAllocated:
                guard schemaVersion == BatchAllocated.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .batchAllocated(try BatchAllocated(from: &reader))
            case .adHocTaskAllocated:
                guard schemaVersion == AdHocTaskAllocated.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .adHocTaskAllocated(try AdHocTaskAllocated(from: &reader))
            case .collectionStarted:
                guard schemaVersion == CollectionStarted.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .collectionStarted(try CollectionStarted(from: &reader))
            case .collectionPaused:
                guard schemaVersion == CollectionPaused.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .collectionPaused(try CollectionPaused(from: &reader))
            case .collectionFinished:
                guard schemaVersion == CollectionFinished.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .collectionFinished(try CollectionFinished(from: &reader))
            case .collectionCancelled:
                guard schemaVersion == CollectionCancelled.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .collectionCancelled(try CollectionCancelled(from: &reader))
            case .productCollected:
                guard schemaVersion == ProductCollected.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .productCollected(try ProductCollected(from: &reader))
            case .collectionSkipped:
                guard schemaVersion == CollectionSkipped.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .collectionSkipped(try CollectionSkipped(from: &reader))
            case .inspectionStarted:
                guard schemaVersion == InspectionStarted.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .inspectionStarted(try InspectionStarted(from: &reader))
            case .inspectionPaused:
                guard schemaVersion == InspectionPaused.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .inspectionPaused(try InspectionPaused(from: &reader))
            case .photoAttached:
                guard schemaVersion == PhotoAttached.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .photoAttached(try PhotoAttached(from: &reader))
            case .inspectionFinished:
                guard schemaVersion == InspectionFinished.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .inspectionFinished(try InspectionFinished(from: &reader))
            case .inspectionSkipped:
                guard schemaVersion == InspectionSkipped.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .inspectionSkipped(try InspectionSkipped(from: &reader))
            case .batchSubmitted:
                guard schemaVersion == BatchSubmitted.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .batchSubmitted(try BatchSubmitted(from: &reader))
            case .batchCancelled:
                guard schemaVersion == BatchCancelled.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .batchCancelled(try BatchCancelled(from: &reader))
            case .batchExpired:
                guard schemaVersion == BatchExpired.schemaVersion else {
                    throw unknownVersion(eventType, schemaVersion)
                }
                event = .batchExpired(try BatchExpired(from: &reader))
            }
        } catch {
            var error = error
            if error.eventType.isEmpty { error.eventType = "\(eventType) v\(schemaVersion)" }
            throw error
        }
        guard reader.isAtEnd else {
            throw PayloadDecodingError(
                "\(payload.count - reader.offset) unexpected bytes after the last field",
                eventType: "\(eventType) v\(schemaVersion)", offset: reader.offset)
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

    private static func unknownVersion(_ eventType: String, _ version: Int) -> PayloadDecodingError {
        PayloadDecodingError(
            "schema version \(version) of \(eventType) is not known to this build", eventType: eventType, offset: 0)
    }
}
