import Inspection

/// `UserAdded` as version 1 wrote it, with one role: kept to read old logs, upcast on decoding.
public struct UserAddedV1: EventPayload {
    public static let eventType = "UserAdded"
    public static let schemaVersion = 1
    /// Login name and actor id.
    public var username: String
    /// Display name.
    public var name: String
    /// The one role.
    public var role: UserRole
    /// The bcrypt hash of the password.
    public var passwordHash: String

    /// Creates the event.
    public init(username: String, name: String, role: UserRole, passwordHash: String) {
        self.username = username
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(username)
        writer.string(name)
        writer.code(role)
        writer.string(passwordHash)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(
            username: try reader.string(), name: try reader.string(), role: try reader.code(UserRole.self),
            passwordHash: try reader.string())
    }

    /// The same account in version 2: a set of one role.
    public func upcast() -> UserAdded {
        UserAdded(username: username, name: name, roles: [role], passwordHash: passwordHash)
    }
}

/// `UserRoleChanged` as version 1 wrote it, with one role: kept to read old logs, upcast on decoding.
public struct UserRoleChangedV1: EventPayload {
    public static let eventType = "UserRoleChanged"
    public static let schemaVersion = 1
    /// The user.
    public var username: String
    /// The new role.
    public var role: UserRole

    /// Creates the event.
    public init(username: String, role: UserRole) {
        self.username = username
        self.role = role
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(username)
        writer.code(role)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(username: try reader.string(), role: try reader.code(UserRole.self))
    }

    /// The same change in version 2: the roles replaced by this one.
    public func upcast() -> UserRoleChanged { UserRoleChanged(username: username, roles: [role]) }
}
