import AuditService
import Foundation
import HTTPTypes
import Hummingbird
import NIOPosix

/// The admin routes (`/v1/admin/…`): accounts and device apps while the server holds the log,
/// the same identity commands `itemaudit users` and `apps` run on a stopped server. A password
/// arrives only in a body and leaves only as a bcrypt hash in the log; an app's secret is
/// answered once, on creation, and never again.
extension Routes {
    /// A user as the admin routes answer it (never the password hash).
    struct AccountRow: Encodable {
        var username: String
        var name: String
        /// The highest of `roles`, for clients that read one role.
        var role: String
        var roles: [String]
        var disabled: Bool
        var addedAt: String
    }

    /// An app as the admin routes answer it (never its secret, sealed or not).
    struct AppRow: Encodable {
        var appID: String
        var name: String
        var revoked: Bool
        var registeredAt: String
    }

    /// An identity change's answer: what was appended.
    struct AccountChange: Encodable {
        var commandID: String
        var status: String
        var position: UInt64?
        var user: AccountRow?
        var app: AppRow?
    }

    /// The app created, with its secret: shown this once.
    struct AppCreated: Encodable {
        var commandID: String
        var appID: String
        var name: String
        var secret: String
    }

    struct NewUser: Decodable {
        var username: String
        var name: String?
        var roles: [String]
        var password: String
        var commandID: String?
    }

    struct NewRoles: Decodable {
        var roles: [String]
        var commandID: String?
    }

    struct NewPassword: Decodable {
        var password: String
        var commandID: String?
    }

    struct Reason: Decodable {
        var reason: String?
        var commandID: String?
    }

    struct NewApp: Decodable {
        var name: String
        var appID: String?
        var commandID: String?
    }

    static func row(_ user: IdentityState.User) -> AccountRow {
        AccountRow(
            username: user.username, name: user.name, role: user.primaryRole.name, roles: user.roleNames,
            disabled: user.disabled, addedAt: user.addedAt.iso8601)
    }

    static func row(_ app: IdentityState.App) -> AppRow {
        AppRow(appID: app.appID, name: app.name, revoked: app.revoked, registeredAt: app.registeredAt.iso8601)
    }

    /// `GET /v1/admin/users`: every account, by login name.
    func listAccounts() throws -> Response {
        let users = service.identity.snapshot().users.values.sorted { $0.username < $1.username }
        return try json(["users": users.map(Self.row)])
    }

    /// `POST /v1/admin/users`: a new account with one or more roles.
    func addAccount(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireUser()
        let body = try await decode(NewUser.self, request)
        let roles = try Self.roles(body.roles)
        let commandID = try Self.commandID(body.commandID, "users-add")
        let hash = try await hashPassword(body.password)
        let outcome = try await identityChange {
            try await service.addUser(
                username: body.username, name: body.name ?? body.username, roles: Set(roles), passwordHash: hash,
                actor: admin.username, commandID: commandID)
        }
        return try changed(outcome, user: body.username, status: .created)
    }

    /// `PUT /v1/admin/users/{username}/roles`: the account's roles replaced by the set given.
    func changeAccountRoles(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireUser()
        let username = context.parameters.get("username") ?? ""
        let body = try await decode(NewRoles.self, request)
        let roles = try Self.roles(body.roles)
        let commandID = try Self.commandID(body.commandID, "users-roles")
        let outcome = try await identityChange {
            try await service.changeRoles(
                username: username, roles: Set(roles), actor: admin.username, commandID: commandID)
        }
        return try changed(outcome, user: username)
    }

    /// `PUT /v1/admin/users/{username}/password`: a new password.
    func changeAccountPassword(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireUser()
        let username = context.parameters.get("username") ?? ""
        let body = try await decode(NewPassword.self, request)
        let commandID = try Self.commandID(body.commandID, "users-passwd")
        let hash = try await hashPassword(body.password)
        let outcome = try await identityChange {
            try await service.execute(
                identity: .changePassword(UserPasswordChanged(username: username, passwordHash: hash)),
                commandID: commandID, actor: admin.username)
        }
        return try changed(outcome, user: username)
    }

    /// `POST /v1/admin/users/{username}/disable`: no more logins; open sessions end.
    func disableAccount(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireUser()
        let username = context.parameters.get("username") ?? ""
        let body = try await decode(Reason.self, request)
        let commandID = try Self.commandID(body.commandID, "users-disable")
        let outcome = try await identityChange {
            try await service.execute(
                identity: .disableUser(UserDisabled(username: username, reason: body.reason ?? "")),
                commandID: commandID, actor: admin.username)
        }
        return try changed(outcome, user: username)
    }

    /// `GET /v1/admin/apps`: every registered app, by id (never a secret).
    func listDeviceApps() throws -> Response {
        let apps = service.identity.snapshot().apps.values.sorted { $0.appID < $1.appID }
        return try json(["apps": apps.map(Self.row)])
    }

    /// `POST /v1/admin/apps`: a new app; its secret is in this answer and nowhere else.
    func addDeviceApp(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireUser()
        let body = try await decode(NewApp.self, request)
        let appID = body.appID ?? "app-" + UUID().uuidString.lowercased().prefix(8)
        let commandID = try Self.commandID(body.commandID, "apps-add")
        let created = try await identityChange {
            try await service.registerApp(appID: appID, name: body.name, actor: admin.username, commandID: commandID)
        }
        guard created.outcome.status == .accepted else {
            // A resend of the same command id: the secret was answered the first time only.
            throw Problem(
                .conflict, "secret-already-shown",
                "app '\(appID)' was registered by this command before; its secret is not shown again",
                remedy: "revoke it and add a new app if the secret was lost")
        }
        return try json(
            AppCreated(commandID: commandID, appID: appID, name: body.name, secret: created.secret), status: .created)
    }

    /// `POST /v1/admin/apps/{appID}/revoke`: the app's requests are refused from now on.
    func revokeDeviceApp(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireUser()
        let appID = context.parameters.get("appID") ?? ""
        let body = try await decode(Reason.self, request)
        let commandID = try Self.commandID(body.commandID, "apps-revoke")
        let outcome = try await identityChange {
            try await service.execute(
                identity: .revokeApp(AppRevoked(appID: appID, reason: body.reason ?? "")), commandID: commandID,
                actor: admin.username)
        }
        let app = service.identity.app(appID).map(Self.row)
        return try json(
            AccountChange(
                commandID: outcome.commandID, status: outcome.status.rawValue, position: outcome.positions?.lowerBound,
                app: app))
    }

    // MARK: - Helpers

    private func changed(_ outcome: CommandOutcome, user username: String, status: HTTPResponse.Status = .ok) throws
        -> Response
    {
        let user = service.identity.user(username).map(Self.row)
        return try json(
            AccountChange(
                commandID: outcome.commandID, status: outcome.status.rawValue, position: outcome.positions?.lowerBound,
                user: user),
            status: status)
    }

    /// Roles by name, or a 400 naming the unknown one.
    static func roles(_ names: [String]) throws -> [UserRole] {
        do {
            return try UserRole.parse(names: names)
        } catch {
            throw Problem.badRequest("invalid-role", error.message, remedy: "send 'roles' as a list of role names")
        }
    }

    /// The client's command id (so a resend appends nothing), or a new one.
    static func commandID(_ given: String?, _ verb: String) throws -> String {
        guard let given else { return "\(verb)-\(UUID().uuidString.lowercased())" }
        guard (1...128).contains(given.utf8.count), given.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw Problem.badRequest(
                "invalid-body", "'commandID' must be 1-128 printable ASCII characters without spaces",
                remedy: "send another command id, or none")
        }
        return given
    }

    /// The bcrypt hash of a new password, made off the event loops at the accounts' cost.
    private func hashPassword(_ password: String) async throws -> String {
        let cost = service.accountsPasswordCost
        do {
            return try await NIOThreadPool.singleton.runIfActive { try AuditService.passwordHash(password, cost: cost) }
        } catch let refusal as IdentityRefusal {
            throw Self.problem(refusal)
        }
    }

    /// Runs an identity change, answering its refusal as a problem (nothing was appended).
    private func identityChange<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let refusal as IdentityRefusal {
            throw Self.problem(refusal)
        }
    }

    static func problem(_ refusal: IdentityRefusal) -> Problem {
        switch refusal.code {
        case .unknown: Problem.notFound(refusal.message, remedy: "list them: GET /v1/admin/users or /v1/admin/apps")
        case .exists, .unchanged, .lastAdmin:
            Problem(.conflict, "identity-refused", refusal.message, remedy: "nothing was changed; check the list")
        case .invalidName, .weakPassword, .invalidRole:
            Problem.badRequest("identity-refused", refusal.message, remedy: "fix the field and send it again")
        }
    }
}
