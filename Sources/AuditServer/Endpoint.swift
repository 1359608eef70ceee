import AuditService
import HTTPTypes

/// Every route the server answers, with how it is authenticated. The router is built from this
/// list, the permission table is keyed by it, and a test checks it against `Schemas/openapi.yaml`.
public enum Endpoint: String, CaseIterable, Sendable {
    case health
    case openAPI
    case metrics
    case createSession
    case deleteSession
    case me
    case submitCommands
    case uploadPhoto
    case listBatches
    case getBatch
    case getTaskDatasheet
    case listLocations
    case getCodeLists
    case coverage
    case inspectorAnalytics
    case searchProducts
    case categories
    case getProduct
    case history
    case verify
    case listRules
    case checkDatasheets
    case listTasks
    case getPhoto
    case listReceptions
    case listUsers
    case addUser
    case changeUserRoles
    case changeUserPassword
    case disableUser
    case listApps
    case addApp
    case revokeApp

    /// How a request to an endpoint proves who sent it.
    public enum Authentication: Sendable {
        /// Nothing: the routes in ``PublicRoutes``.
        case none
        /// A signed request from a registered app (logging in).
        case signature
        /// Either kind of session: a device's (a signed request with its bearer token) or a
        /// browser's (the web session cookie with its `X-CSRF-Token` header).
        case session
    }

    /// The HTTP method.
    public var method: HTTPRequest.Method {
        switch self {
        case .createSession, .submitCommands, .checkDatasheets: .post
        case .deleteSession: .delete
        case .uploadPhoto: .put
        case .health, .openAPI, .metrics, .me, .listBatches, .getBatch, .getTaskDatasheet, .listLocations,
            .getCodeLists, .coverage, .inspectorAnalytics, .searchProducts, .categories, .getProduct, .history, .verify,
            .listRules, .listTasks:
            .get
        case .getPhoto: .get
        case .listReceptions: .get
        case .listUsers, .listApps: .get
        case .addUser, .disableUser, .addApp, .revokeApp: .post
        case .changeUserRoles, .changeUserPassword: .put
        }
    }

    /// The path as the OpenAPI document writes it (`{name}` for a parameter).
    public var path: String {
        switch self {
        case .health: "/health"
        case .openAPI: "/openapi.yaml"
        case .metrics: "/metrics"
        case .createSession: "/v1/sessions"
        case .deleteSession: "/v1/sessions/current"
        case .me: "/v1/me"
        case .submitCommands: "/v1/commands"
        case .uploadPhoto: "/v1/photos/{sha256}"
        case .listBatches: "/v1/batches"
        case .getBatch: "/v1/batches/{batchID}"
        case .getTaskDatasheet: "/v1/tasks/{taskID}/datasheet"
        case .listLocations: "/v1/locations"
        case .getCodeLists: "/v1/codelists"
        case .coverage: "/v1/coverage"
        case .inspectorAnalytics: "/v1/inspectors"
        case .searchProducts: "/v1/products"
        case .categories: "/v1/categories"
        case .getProduct: "/v1/products/{gtin}"
        case .history: "/v1/history"
        case .verify: "/v1/verify"
        case .listRules: "/v1/rules"
        case .checkDatasheets: "/v1/datasheets/check"
        case .listTasks: "/v1/tasks"
        case .getPhoto: "/v1/photos/{sha256}"
        case .listReceptions: "/v1/receptions"
        case .listUsers, .addUser: "/v1/admin/users"
        case .changeUserRoles: "/v1/admin/users/{username}/roles"
        case .changeUserPassword: "/v1/admin/users/{username}/password"
        case .disableUser: "/v1/admin/users/{username}/disable"
        case .listApps, .addApp: "/v1/admin/apps"
        case .revokeApp: "/v1/admin/apps/{appID}/revoke"
        }
    }

    /// How requests prove who sent them.
    public var authentication: Authentication {
        if PublicRoutes.endpoints.contains(self) { return .none }
        return self == .createSession ? .signature : .session
    }

    /// The largest body the endpoint reads (bytes): what its requests need, nothing for a read.
    func bodyLimit(_ server: ServerState) -> Int {
        switch self {
        case .createSession: Self.loginBodyLimit
        case .submitCommands: server.configuration.maxBodyBytes
        case .uploadPhoto: server.service.configuration.photos.maxBytes
        case .checkDatasheets: server.configuration.maxDatasheetBytes
        case .health, .openAPI, .metrics, .deleteSession, .me, .listBatches, .getBatch, .getTaskDatasheet,
            .listLocations, .getCodeLists, .coverage, .inspectorAnalytics, .searchProducts, .categories, .getProduct,
            .history, .verify, .listRules, .listTasks:
            0
        case .getPhoto: 0
        case .listReceptions: 0
        case .listUsers, .listApps: 0
        // A name, roles, a password or a reason in JSON: a login's limit.
        case .addUser, .changeUserRoles, .changeUserPassword, .disableUser, .addApp, .revokeApp: Self.loginBodyLimit
        }
    }

    /// A user name and password in JSON.
    static let loginBodyLimit = 4 << 10

    /// What caches may keep of the endpoint's successful answers.
    var cachePolicy: CachePolicy {
        switch self {
        case .openAPI: .publicFor(seconds: 300)
        // Addressed by its hash and size, seen only by those allowed it.
        case .getPhoto: .privateImmutable
        default: .noStore
        }
    }
}
