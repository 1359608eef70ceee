import Inspection

/// A user account was created: the login name is also the actor of every event the user causes.
///
/// The password is stored only as a bcrypt hash (never the password itself, never in a log line).
/// Version 2 holds a set of roles (the seed's "inspector with a managerial role"); version 1's one
/// role is read as a set of one (``UserAddedV1``).
public struct UserAdded: EventPayload {
    public static let eventType = "UserAdded"
    public static let schemaVersion = 2
    /// Login name and actor id.
    public var username: String
    /// Display name.
    public var name: String
    /// What the user may do: every role's permissions together, in code order, never empty.
    public var roles: [UserRole]
    /// The bcrypt hash of the password (`$2b$…`).
    public var passwordHash: String

    /// Creates the event; `roles` is kept in code order without repeats.
    public init(username: String, name: String, roles: some Sequence<UserRole>, passwordHash: String) {
        self.username = username
        self.name = name
        self.roles = UserRole.ordered(roles)
        self.passwordHash = passwordHash
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(username)
        writer.string(name)
        writer.roles(roles)
        writer.string(passwordHash)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(
            username: try reader.string(), name: try reader.string(), roles: try reader.roles(),
            passwordHash: try reader.string())
    }
}

/// A user's password was replaced (the new bcrypt hash).
public struct UserPasswordChanged: EventPayload {
    public static let eventType = "UserPasswordChanged"
    public static let schemaVersion = 1
    /// The user.
    public var username: String
    /// The bcrypt hash of the new password.
    public var passwordHash: String

    /// Creates the event.
    public init(username: String, passwordHash: String) {
        self.username = username
        self.passwordHash = passwordHash
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(username)
        writer.string(passwordHash)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(username: try reader.string(), passwordHash: try reader.string())
    }
}

/// A user's roles were replaced by a new set (version 2; version 1 named one role, ``UserRoleChangedV1``).
public struct UserRoleChanged: EventPayload {
    public static let eventType = "UserRoleChanged"
    public static let schemaVersion = 2
    /// The user.
    public var username: String
    /// The new roles, in code order, never empty.
    public var roles: [UserRole]

    /// Creates the event; `roles` is kept in code order without repeats.
    public init(username: String, roles: some Sequence<UserRole>) {
        self.username = username
        self.roles = UserRole.ordered(roles)
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(username)
        writer.roles(roles)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(username: try reader.string(), roles: try reader.roles())
    }
}

/// A user can no longer log in; their open sessions end at their next request.
public struct UserDisabled: EventPayload {
    public static let eventType = "UserDisabled"
    public static let schemaVersion = 1
    /// The user.
    public var username: String
    /// Why (free text for the auditor).
    public var reason: String

    /// Creates the event.
    public init(username: String, reason: String) {
        self.username = username
        self.reason = reason
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(username)
        writer.string(reason)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(username: try reader.string(), reason: try reader.string())
    }
}

/// A device app was registered: requests signed with its secret are accepted.
///
/// The secret itself is needed to check HMACs, so it is stored sealed (AES-GCM) under the data
/// directory's key file (see ``AppSecretVault``): a copy of the log alone cannot sign requests.
public struct AppRegistered: EventPayload {
    public static let eventType = "AppRegistered"
    public static let schemaVersion = 1
    /// The app id sent in every request.
    public var appID: String
    /// What the app is (device, owner).
    public var name: String
    /// The secret sealed with the vault key: base64 of AES-GCM nonce, ciphertext and tag.
    public var sealedSecret: String

    /// Creates the event.
    public init(appID: String, name: String, sealedSecret: String) {
        self.appID = appID
        self.name = name
        self.sealedSecret = sealedSecret
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(appID)
        writer.string(name)
        writer.string(sealedSecret)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(appID: try reader.string(), name: try reader.string(), sealedSecret: try reader.string())
    }
}

/// A device app was revoked: its requests are refused from now on.
public struct AppRevoked: EventPayload {
    public static let eventType = "AppRevoked"
    public static let schemaVersion = 1
    /// The app.
    public var appID: String
    /// Why (free text for the auditor).
    public var reason: String

    /// Creates the event.
    public init(appID: String, reason: String) {
        self.appID = appID
        self.reason = reason
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(appID)
        writer.string(reason)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(appID: try reader.string(), reason: try reader.string())
    }
}
