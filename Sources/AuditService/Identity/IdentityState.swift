import Chronology
import Inspection

/// The fold of every identity event: who may log in, with which role, and which apps may sign.
public struct IdentityState: Sendable, Hashable {
    /// A user account.
    public struct User: Sendable, Hashable {
        /// Login name and actor id.
        public var username: String
        /// Display name.
        public var name: String
        /// What the user may do: everything any of these roles may (``PermissionTable``).
        public var roles: Set<UserRole>
        /// The bcrypt hash of the password.
        public var passwordHash: String
        /// Whether the account is disabled (no login, sessions refused).
        public var disabled: Bool
        /// When it was created.
        public var addedAt: Timestamp
    }

    /// A registered device app.
    public struct App: Sendable, Hashable {
        /// The id sent in every request.
        public var appID: String
        /// What it is.
        public var name: String
        /// The secret, sealed with the vault key.
        public var sealedSecret: String
        /// Whether it was revoked.
        public var revoked: Bool
        /// When it was registered.
        public var registeredAt: Timestamp
    }

    /// Users by login name.
    public internal(set) var users: [String: User] = [:]
    /// Apps by id.
    public internal(set) var apps: [String: App] = [:]

    /// No users, no apps.
    public init() {}

    /// Folds one event recorded at `time`.
    public mutating func apply(_ event: IdentityEvent, at time: Timestamp) {
        switch event {
        case .userAdded(let e):
            users[e.username] = User(
                username: e.username, name: e.name, roles: Set(e.roles), passwordHash: e.passwordHash, disabled: false,
                addedAt: time)
        case .userPasswordChanged(let e):
            users[e.username]?.passwordHash = e.passwordHash
        case .userRoleChanged(let e):
            users[e.username]?.roles = Set(e.roles)
        case .userDisabled(let e):
            users[e.username]?.disabled = true
        case .appRegistered(let e):
            apps[e.appID] = App(
                appID: e.appID, name: e.name, sealedSecret: e.sealedSecret, revoked: false, registeredAt: time)
        case .appRevoked(let e):
            apps[e.appID]?.revoked = true
        }
    }

    /// The stream an account's events go to.
    public static func stream(user username: String) -> String { "user-\(username)" }
    /// The stream an app's events go to.
    public static func stream(app appID: String) -> String { "app-\(appID)" }

    /// Decides an identity command: the events to append, or why not.
    /// - Throws: ``IdentityRefusal`` naming the account or app and what to do.
    public func decide(_ command: IdentityCommand) throws(IdentityRefusal) -> (stream: String, event: IdentityEvent) {
        switch command {
        case .addUser(let e):
            guard Self.isValidName(e.username) else {
                throw IdentityRefusal(
                    .invalidName,
                    "'\(e.username)' is not a valid user name (use 1-64 letters, digits, '.', '_' or '-')")
            }
            guard !e.roles.isEmpty else { throw IdentityRefusal(.invalidRole, "user '\(e.username)' needs a role") }
            guard users[e.username] == nil else {
                throw IdentityRefusal(.exists, "user '\(e.username)' already exists (pick another name, or passwd it)")
            }
            return (Self.stream(user: e.username), .userAdded(e))
        case .changePassword(let e):
            _ = try user(e.username)
            return (Self.stream(user: e.username), .userPasswordChanged(e))
        case .changeRole(let e):
            let current = try user(e.username)
            guard !e.roles.isEmpty else { throw IdentityRefusal(.invalidRole, "user '\(e.username)' needs a role") }
            guard current.roles != Set(e.roles) else {
                throw IdentityRefusal(
                    .unchanged, "user '\(e.username)' already has roles \(e.roles.map(\.name).joined(separator: ", "))")
            }
            if !e.roles.contains(.admin) { try keepAnAdmin(besides: current) }
            return (Self.stream(user: e.username), .userRoleChanged(e))
        case .disableUser(let e):
            let current = try user(e.username)
            guard !current.disabled else {
                throw IdentityRefusal(.unchanged, "user '\(e.username)' is already disabled")
            }
            try keepAnAdmin(besides: current)
            return (Self.stream(user: e.username), .userDisabled(e))
        case .registerApp(let e):
            guard Self.isValidName(e.appID) else {
                throw IdentityRefusal(
                    .invalidName, "'\(e.appID)' is not a valid app id (use 1-64 letters, digits, '.', '_' or '-')")
            }
            guard apps[e.appID] == nil else {
                throw IdentityRefusal(.exists, "app '\(e.appID)' already exists (app ids are never reused)")
            }
            return (Self.stream(app: e.appID), .appRegistered(e))
        case .revokeApp(let e):
            guard let app = apps[e.appID] else {
                throw IdentityRefusal(.unknown, "no app '\(e.appID)' (see `itemaudit apps list`)")
            }
            guard !app.revoked else { throw IdentityRefusal(.unchanged, "app '\(e.appID)' is already revoked") }
            return (Self.stream(app: e.appID), .appRevoked(e))
        }
    }

    /// Refuses to take the admin role from, or disable, the last enabled admin: no one could then
    /// manage accounts while the server runs (the CLI on a stopped server still could).
    private func keepAnAdmin(besides user: User) throws(IdentityRefusal) {
        guard user.roles.contains(.admin), !user.disabled else { return }
        let others = users.values.contains { $0.username != user.username && !$0.disabled && $0.roles.contains(.admin) }
        guard others else {
            throw IdentityRefusal(
                .lastAdmin, "user '\(user.username)' is the last enabled admin (make another user admin first)")
        }
    }

    private func user(_ username: String) throws(IdentityRefusal) -> User {
        guard let user = users[username] else {
            throw IdentityRefusal(.unknown, "no user '\(username)' (see `itemaudit users list`)")
        }
        return user
    }

    /// 1–64 characters of letters, digits, `.`, `_` and `-`.
    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy {
                (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 46 || $0 == 95
                    || $0 == 45
            }
    }
}

/// An account or app change to decide.
public enum IdentityCommand: Sendable, Hashable {
    case addUser(UserAdded)
    case changePassword(UserPasswordChanged)
    case changeRole(UserRoleChanged)
    case disableUser(UserDisabled)
    case registerApp(AppRegistered)
    case revokeApp(AppRevoked)
}

/// Why an identity command was refused; nothing was appended.
public struct IdentityRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Kinds of refusal.
    public enum Code: String, Sendable, Hashable {
        case invalidName, exists, unknown, unchanged, weakPassword, invalidRole, lastAdmin
    }

    /// The kind.
    public var code: Code
    /// What was wrong and what to do.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
