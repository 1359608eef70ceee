import AuditService
import Foundation
import HTTPTypes
import Hummingbird
import NIOPosix
import WebPages

/// The admin's accounts page (`/admin/accounts`): the same identity commands as the admin routes
/// (`Routes+Admin.swift`), from forms carrying the session's CSRF token.
extension WebSite {
    /// `GET /admin/accounts`.
    func accountsPage(_ visitor: Visitor) -> Response {
        page(visitor, AccountsPageNotice())
    }

    /// `POST /admin/accounts`: one form's change, answered with the page saying what was done
    /// (and a new app's secret, this once) or why not.
    func changeAccounts(_ request: Request, _ visitor: Visitor) async throws -> Response {
        var request = request
        let fields = try await formFields(&request)
        try checkPost(request, token: fields[WebSecurity.csrfField], expected: visitor.session.csrfToken)
        let service = server.service
        let actor = visitor.user.username
        let username = fields["username"] ?? ""
        let commandID = "web-\(UUID().uuidString.lowercased())"
        let roles = Set(UserRole.allCases.filter { fields["role-\($0.name)"] == "on" })
        var notice = AccountsPageNotice()
        do {
            switch fields["action"] ?? "" {
            case "addUser":
                guard !roles.isEmpty else {
                    throw IdentityRefusal(.invalidRole, "tick at least one role for the new user")
                }
                let hash = try await Self.hash(fields["password"] ?? "", cost: service.accountsPasswordCost)
                let name = fields["name"].flatMap { $0.isEmpty ? nil : $0 } ?? username
                _ = try await service.addUser(
                    username: username, name: name, roles: roles, passwordHash: hash, actor: actor,
                    commandID: commandID)
                notice.text = "Added user \(username)."
            case "setRoles":
                guard !roles.isEmpty else { throw IdentityRefusal(.invalidRole, "tick at least one role") }
                _ = try await service.changeRoles(username: username, roles: roles, actor: actor, commandID: commandID)
                notice.text =
                    "User \(username) now has roles \(UserRole.ordered(roles).map(\.name).joined(separator: ", "))."
            case "setPassword":
                let hash = try await Self.hash(fields["password"] ?? "", cost: service.accountsPasswordCost)
                _ = try await service.execute(
                    identity: .changePassword(UserPasswordChanged(username: username, passwordHash: hash)),
                    commandID: commandID, actor: actor)
                notice.text = "Changed the password of \(username)."
            case "disableUser":
                _ = try await service.execute(
                    identity: .disableUser(UserDisabled(username: username, reason: fields["reason"] ?? "")),
                    commandID: commandID, actor: actor)
                notice.text = "Disabled user \(username)."
            case "addApp":
                let given = fields["appID"] ?? ""
                let appID = given.isEmpty ? "app-" + UUID().uuidString.lowercased().prefix(8) : given
                let (_, secret) = try await service.registerApp(
                    appID: appID, name: fields["name"] ?? "", actor: actor, commandID: commandID)
                notice.text = "Registered app \(appID)."
                notice.createdApp = (appID, secret)
            case "revokeApp":
                let appID = fields["appID"] ?? ""
                _ = try await service.execute(
                    identity: .revokeApp(AppRevoked(appID: appID, reason: fields["reason"] ?? "")),
                    commandID: commandID, actor: actor)
                notice.text = "Revoked app \(appID)."
            default:
                throw WebRefusal(.badRequest, "The form named no known action; nothing was done. Reload the page.")
            }
        } catch let refusal as IdentityRefusal {
            notice.error = refusal.message + "; nothing was changed."
            notice.status = Routes.problem(refusal).status
        }
        return page(visitor, notice)
    }

    private func page(_ visitor: Visitor, _ notice: AccountsPageNotice) -> Response {
        let identity = server.service.identity.snapshot()
        let rendered = AccountsPage(
            viewer: Self.viewer(visitor), users: Array(identity.users.values), apps: Array(identity.apps.values),
            notice: notice.text, error: notice.error, createdApp: notice.createdApp
        ).rendered()
        return WebSecurity.html(rendered.html, status: notice.status)
    }

    /// A new password's hash, made off the event loops.
    private static func hash(_ password: String, cost: UInt8) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { try AuditService.passwordHash(password, cost: cost) }
    }
}

/// What the accounts page says after a form.
struct AccountsPageNotice {
    var text: String?
    var error: String?
    var createdApp: (appID: String, secret: String)?
    var status: HTTPResponse.Status = .ok
}
