import Inspection

/// Every identity event: accounts, roles and device apps, kept in the same log as the inspection
/// events so an auditor sees who was allowed what, and when.
public enum IdentityEvent: Sendable, Hashable {
    case userAdded(UserAdded)
    case userPasswordChanged(UserPasswordChanged)
    case userRoleChanged(UserRoleChanged)
    case userDisabled(UserDisabled)
    case appRegistered(AppRegistered)
    case appRevoked(AppRevoked)

    /// Every payload type at its current version.
    public static let currentTypes: [any EventPayload.Type] = [
        UserAdded.self, UserPasswordChanged.self, UserRoleChanged.self, UserDisabled.self, AppRegistered.self,
        AppRevoked.self,
    ]

    /// The older versions still read (and upcast to the current ones).
    public static let olderTypes: [any EventPayload.Type] = [UserAddedV1.self, UserRoleChangedV1.self]

    /// The payload.
    public var payload: any EventPayload {
        switch self {
        case .userAdded(let event): event
        case .userPasswordChanged(let event): event
        case .userRoleChanged(let event): event
        case .userDisabled(let event): event
        case .appRegistered(let event): event
        case .appRevoked(let event): event
        }
    }

    /// The event type stored in the log.
    public var eventType: String { type(of: payload).eventType }
    /// The schema version written.
    public var schemaVersion: Int { type(of: payload).schemaVersion }
    /// The payload bytes.
    public func encoded() -> [UInt8] { payload.encoded() }

    /// Decodes an identity record; nil when `eventType` is not an identity event.
    /// - Throws: ``PayloadDecodingError`` for a damaged payload or an unknown schema version.
    public static func decode(
        eventType: String, schemaVersion: Int, payload: UnsafeRawBufferPointer
    ) throws(PayloadDecodingError) -> IdentityEvent? {
        var reader = PayloadReader(payload)
        func check(_ type: any EventPayload.Type) throws(PayloadDecodingError) {
            guard schemaVersion == type.schemaVersion else {
                throw PayloadDecodingError(
                    "unknown schema version \(schemaVersion) of \(eventType) (upgrade itemaudit)", eventType: eventType)
            }
        }
        let event: IdentityEvent
        switch eventType {
        // Version 1 named one role; it is read as a set of one (the upcasters).
        case UserAdded.eventType where schemaVersion == UserAddedV1.schemaVersion:
            event = .userAdded(try UserAddedV1(from: &reader).upcast())
        case UserAdded.eventType:
            try check(UserAdded.self)
            event = .userAdded(try UserAdded(from: &reader))
        case UserPasswordChanged.eventType:
            try check(UserPasswordChanged.self)
            event = .userPasswordChanged(try UserPasswordChanged(from: &reader))
        case UserRoleChanged.eventType where schemaVersion == UserRoleChangedV1.schemaVersion:
            event = .userRoleChanged(try UserRoleChangedV1(from: &reader).upcast())
        case UserRoleChanged.eventType:
            try check(UserRoleChanged.self)
            event = .userRoleChanged(try UserRoleChanged(from: &reader))
        case UserDisabled.eventType:
            try check(UserDisabled.self)
            event = .userDisabled(try UserDisabled(from: &reader))
        case AppRegistered.eventType:
            try check(AppRegistered.self)
            event = .appRegistered(try AppRegistered(from: &reader))
        case AppRevoked.eventType:
            try check(AppRevoked.self)
            event = .appRevoked(try AppRevoked(from: &reader))
        default:
            return nil
        }
        guard reader.isAtEnd else {
            throw PayloadDecodingError(
                "\(reader.offset) of \(payload.count) payload bytes read; the rest is unexpected", eventType: eventType,
                offset: reader.offset)
        }
        return event
    }

    /// ``decode(eventType:schemaVersion:payload:)`` over an array.
    public static func decode(
        eventType: String, schemaVersion: Int, payload: [UInt8]
    ) throws(PayloadDecodingError) -> IdentityEvent? {
        let result = payload.withUnsafeBytes { buffer in
            Result { () throws(PayloadDecodingError) in
                try decode(eventType: eventType, schemaVersion: schemaVersion, payload: buffer)
            }
        }
        return try result.get()
    }
}
