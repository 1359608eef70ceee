import AuditLog
import Foundation
import HummingbirdBcrypt
import Inspection

extension AuditService {
    /// The shortest password accepted.
    public static let minimumPasswordLength = 8

    /// Seals and opens app secrets with the data directory's key file.
    public nonisolated var vault: AppSecretVault { AppSecretVault(dataDirectory: dataDirectory) }

    /// Decides an identity command against the current accounts and appends its event as `actor`.
    ///
    /// A command id seen before returns the original outcome (status `.duplicate`) and appends nothing.
    /// - Throws: ``IdentityRefusal`` when the command does not fit (nothing appended);
    ///   ``AuditServiceError`` when the log fails.
    public func execute(identity command: IdentityCommand, commandID: String, actor: String) async throws
        -> CommandOutcome
    {
        for _ in 0..<max(1, configuration.maxAttempts) {
            let used: AppendedCommand?
            do {
                used = try await log.appendedCommand(commandID)
            } catch {
                throw AuditServiceError(.log, "cannot look up command id \(commandID): \(error)")
            }
            if let used {
                return CommandOutcome(
                    commandID: commandID, commandType: command.typeName, status: .duplicate, stream: used.streamID,
                    positions: used.positions, streamVersion: used.streamVersion)
            }
            let basis = appliedPosition
            let (stream, event) = try identity.snapshot().decide(command)
            // The store's version holds only if the accounts decided on include all of the stream.
            let current = try await streamState(of: stream)
            guard appliedPosition == basis, current.reachesUpTo <= basis else {
                try await catchUp(through: current.reachesUpTo)
                continue
            }
            let expected = current.version
            let append = StreamAppend(
                streamID: stream, expected: expected == 0 ? .noStream : .exactly(expected), commandID: commandID,
                actor: actor,
                events: [
                    ProposedEvent(
                        eventType: event.eventType, schemaVersion: UInt16(event.schemaVersion),
                        occurredAt: clock.now(), payload: event.encoded())
                ])
            let result: AppendResult
            do {
                result = try await log.append(contentsOf: [append])[0]
            } catch let error as EventLogError where error.code == .versionConflict {
                try catchUp()
                continue
            } catch {
                throw AuditServiceError(.log, "cannot append: \(error)", context: ["commandID": commandID])
            }
            try catchUp()
            notifyObservers()
            return CommandOutcome(
                commandID: commandID, commandType: command.typeName,
                status: result.wasDuplicate ? .duplicate : .accepted, stream: stream, positions: result.positions,
                streamVersion: result.streamVersion, eventTypes: result.wasDuplicate ? [] : [event.eventType])
        }
        throw AuditServiceError(
            .tooManyConflicts, "other appends to the same account kept winning (send it again)",
            context: ["commandID": commandID])
    }

    /// Creates a user with a bcrypt-hashed password. An inspector, receiver or manager the
    /// inspection domain does not know yet is also registered there under the same id.
    /// - Parameter cost: bcrypt cost (12 by default; tests pass 4).
    /// - Throws: ``IdentityRefusal`` for a taken or invalid name or a short password.
    public nonisolated func addUser(
        username: String, name: String, role: UserRole, password: String, actor: String, commandID: String,
        cost: UInt8 = 12
    ) async throws -> CommandOutcome {
        try await addUser(
            username: username, name: name, roles: [role], password: password, actor: actor, commandID: commandID,
            cost: cost)
    }

    /// Creates a user holding several roles (they may do what any of them may).
    /// - Throws: ``IdentityRefusal`` for a taken or invalid name, no role or a short password.
    public nonisolated func addUser(
        username: String, name: String, roles: Set<UserRole>, password: String, actor: String, commandID: String,
        cost: UInt8 = 12
    ) async throws -> CommandOutcome {
        let hash = try Self.passwordHash(password, cost: cost)
        return try await addUser(
            username: username, name: name, roles: roles, passwordHash: hash, actor: actor, commandID: commandID)
    }

    /// Creates a user whose password was hashed already (``passwordHash(_:cost:)``, off any event loop).
    /// - Throws: ``IdentityRefusal`` for a taken or invalid name or no role.
    public nonisolated func addUser(
        username: String, name: String, roles: Set<UserRole>, passwordHash hash: String, actor: String,
        commandID: String
    ) async throws -> CommandOutcome {
        guard !roles.isEmpty else { throw IdentityRefusal(.invalidRole, "user '\(username)' needs a role") }
        let outcome = try await execute(
            identity: .addUser(UserAdded(username: username, name: name, roles: roles, passwordHash: hash)),
            commandID: commandID, actor: actor)
        try await registerInDomain(username: username, name: name, roles: roles, actor: actor, commandID: commandID)
        return outcome
    }

    /// Replaces a user's roles. An inspector, receiver or manager the inspection domain does not
    /// know yet is registered there, as for a new user.
    /// - Throws: ``IdentityRefusal`` for an unknown user, no role, or the roles they already hold.
    public func changeRoles(username: String, roles: Set<UserRole>, actor: String, commandID: String) async throws
        -> CommandOutcome
    {
        let outcome = try await execute(
            identity: .changeRole(UserRoleChanged(username: username, roles: roles)), commandID: commandID,
            actor: actor)
        let name = identity.user(username)?.name ?? username
        try await registerInDomain(username: username, name: name, roles: roles, actor: actor, commandID: commandID)
        return outcome
    }

    private func registerInDomain(
        username: String, name: String, roles: Set<UserRole>, actor: String, commandID: String
    ) async throws {
        // The domain knows one role per person: one who inspects is registered as an inspector
        // (batches may be allocated to them) even when they also manage.
        let domainRole: InspectorRole? =
            if roles.contains(.inspector) {
                .inspector
            } else if roles.contains(.manager) {
                .manager
            } else if roles.contains(.receiver) {
                .receiver
            } else {
                nil
            }
        guard let domainRole, state.inspectors[username] == nil else { return }
        _ = try await execute(
            CommandEnvelope(
                commandID: "\(commandID)-register", actor: actor,
                command: .registerInspector(RegisterInspector(inspectorID: username, name: name, role: domainRole))))
    }

    /// Replaces a user's password.
    public nonisolated func changePassword(
        username: String, password: String, actor: String, commandID: String, cost: UInt8 = 12
    ) async throws -> CommandOutcome {
        try Self.checkPasswordPolicy(password)
        let hash = Bcrypt.hash(password, cost: cost)
        return try await execute(
            identity: .changePassword(UserPasswordChanged(username: username, passwordHash: hash)),
            commandID: commandID, actor: actor)
    }

    /// Registers a device app and returns its secret (hex, 64 characters): shown once, stored sealed.
    /// - Parameter secret: 32 bytes to use (tests); random otherwise.
    public nonisolated func registerApp(
        appID: String, name: String, actor: String, commandID: String, secret: [UInt8]? = nil
    ) async throws -> (outcome: CommandOutcome, secret: String) {
        var bytes = secret ?? []
        if secret == nil {
            var generator = SystemRandomNumberGenerator()
            bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let sealed = try vault.seal(bytes)
        let outcome = try await execute(
            identity: .registerApp(AppRegistered(appID: appID, name: name, sealedSecret: sealed)),
            commandID: commandID, actor: actor)
        return (outcome, bytes.map { String(format: "%02x", $0) }.joined())
    }

    /// The user when the password matches an enabled account, else nil (bcrypt: slow by design,
    /// call it off any event loop).
    public nonisolated func authenticate(username: String, password: String) -> IdentityState.User? {
        guard let user = identity.user(username), !user.disabled else { return nil }
        return Bcrypt.verify(password, hash: user.passwordHash) ? user : nil
    }

    /// Whether `password` is the user's (bcrypt, slow by design), whether or not the account is disabled.
    public nonisolated func checkPassword(_ password: String, of user: IdentityState.User) -> Bool {
        Bcrypt.verify(password, hash: user.passwordHash)
    }

    /// The secret of an app that is registered and not revoked, else nil.
    /// - Throws: ``AuditServiceError`` when the sealed secret does not open (key file replaced).
    public nonisolated func secret(ofApp appID: String) throws -> [UInt8]? {
        guard let app = identity.app(appID), !app.revoked else { return nil }
        return try openedSecrets.secret(app.sealedSecret, vault: vault)
    }

    /// The bcrypt hash of a password that meets the policy (slow by design: call it off any event loop).
    /// - Throws: ``IdentityRefusal`` (`.weakPassword`) for a short password.
    public static func passwordHash(_ password: String, cost: UInt8) throws(IdentityRefusal) -> String {
        try checkPasswordPolicy(password)
        return Bcrypt.hash(password, cost: cost)
    }

    /// The bcrypt cost of the existing accounts (12 when there is none): a password set through
    /// the server costs a login what the others cost.
    public nonisolated var accountsPasswordCost: UInt8 {
        identity.anyPasswordHash.flatMap { UInt8($0.split(separator: "$").dropFirst().first ?? "") } ?? 12
    }

    static func checkPasswordPolicy(_ password: String) throws(IdentityRefusal) {
        guard password.count >= minimumPasswordLength else {
            throw IdentityRefusal(
                .weakPassword, "the password is shorter than \(minimumPasswordLength) characters (choose a longer one)")
        }
    }
}

extension IdentityCommand {
    /// The command's type name, e.g. `AddUser`.
    public var typeName: String {
        switch self {
        case .addUser: "AddUser"
        case .changePassword: "ChangePassword"
        case .changeRole: "ChangeRole"
        case .disableUser: "DisableUser"
        case .registerApp: "RegisterApp"
        case .revokeApp: "RevokeApp"
        }
    }
}
