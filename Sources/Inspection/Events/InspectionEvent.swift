// InspectionEvent itself (one case per event payload type in this folder, `payload` and the
// registry entries) is generated at build time by the EventRegistryPlugin from the types here
// that conform to InspectionEventPayload: a new event type is its file and its schema.
extension InspectionEvent {
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
