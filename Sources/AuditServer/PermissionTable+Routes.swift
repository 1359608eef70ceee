import AuditService
import WebPages

/// The server's routes in the permission table (AuditService): each endpoint and browser route
/// names the table's entry for what it serves, and writes no roles of its own.
extension PermissionTable {
    /// The roles allowed on each endpoint that needs a session.
    public static func roles(for endpoint: Endpoint) -> Set<UserRole> {
        switch endpoint {
        case .health, .openAPI, .metrics, .createSession, .deleteSession, .me: everyone
        case .submitCommands: commandSenders
        // A photo is uploaded to be attached to a task.
        case .uploadPhoto: roles(forCommand: .attachPhoto)
        case .listBatches, .getBatch, .getTaskDatasheet: roles(forQuery: .batches)
        case .listLocations, .getCodeLists, .searchProducts, .categories, .getProduct, .listRules:
            roles(forQuery: .catalogue)
        case .coverage: roles(forQuery: .coverage)
        case .inspectorAnalytics: roles(forQuery: .inspectorAnalytics)
        case .history: roles(forQuery: .history)
        case .verify: roles(forQuery: .verification)
        // Checking changes nothing; recording (`?record=true`) is ``mayRecordDatasheets(_:)``.
        case .checkDatasheets: roles(forQuery: .datasheetCheck)
        case .listTasks: roles(forQuery: .batches)
        // As the web pages' photos; an inspector further only their own and their products' references.
        case .getPhoto: roles(for: WebRoute.photo)
        case .listReceptions: roles(forQuery: .receptions)
        case .listUsers, .addUser, .changeUserRoles, .changeUserPassword, .disableUser, .listApps, .addApp, .revokeApp:
            accountAdministrators
        }
    }

    /// The roles allowed on each browser route: a page's are the table's for that page.
    public static func roles(for route: WebRoute) -> Set<UserRole> {
        switch route {
        case .loginForm, .login, .logout, .favicon: everyone
        case .home: roles(forPage: .dashboard)
        case .photo: roles(forQuery: .catalogue)
        case .checkDatasheet: roles(forQuery: .datasheetCheck)
        case .page(let page): roles(forPage: page)
        case .accounts, .changeAccounts: accountAdministrators
        case .appShell, .appFile, .appAsset: everyone
        }
    }

    /// Whether `role` may open `route`.
    public static func allows(_ role: UserRole, _ route: WebRoute) -> Bool { roles(for: route).contains(role) }

    /// Whether `role` may call `endpoint`.
    public static func allows(_ role: UserRole, _ endpoint: Endpoint) -> Bool { roles(for: endpoint).contains(role) }
}

// A user holding several roles may open what any of them may (``PermissionTable/permits(_:_:)``).
extension PermissionTable {
    /// Whether a user holding `roles` may open `route`.
    public static func allows(_ roles: Set<UserRole>, _ route: WebRoute) -> Bool {
        permits(roles, Self.roles(for: route))
    }

    /// Whether a user holding `roles` may call `endpoint`.
    public static func allows(_ roles: Set<UserRole>, _ endpoint: Endpoint) -> Bool {
        permits(roles, Self.roles(for: endpoint))
    }
}
