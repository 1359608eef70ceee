import AuditService
import WebPages

/// The one table deciding who may call what: every endpoint, browser route and command type, by role.
///
/// An inspector's reach is further limited to their own batches and tasks (checked against the
/// domain state when the request is handled); an auditor only reads.
public enum PermissionTable {
    /// Every role.
    static let everyone = Set(UserRole.allCases)

    /// The roles allowed on each endpoint that needs a session.
    public static func roles(for endpoint: Endpoint) -> Set<UserRole> {
        switch endpoint {
        case .health, .openAPI, .metrics, .createSession: everyone
        case .deleteSession, .me, .listLocations, .getCodeLists: everyone
        case .submitCommands: [.inspector, .receiver, .manager, .steward, .admin]
        case .uploadPhoto: [.inspector, .admin]
        case .listBatches, .getBatch, .getTaskDatasheet: [.inspector, .manager, .auditor, .admin]
        case .searchProducts, .categories, .getProduct: everyone
        case .coverage, .inspectorAnalytics, .history: [.manager, .auditor, .admin]
        case .verify: [.auditor, .admin]
        case .listRules: everyone
        // Checking changes nothing; recording (`?record=true`) is ``mayRecordDatasheets(_:)``.
        case .checkDatasheets: [.steward, .manager, .admin]
        }
    }

    /// The roles allowed to send each command type (by its `type` name).
    public static func roles(forCommand typeName: String) -> Set<UserRole> {
        switch typeName {
        case "RegisterLocation", "RegisterInspector": [.admin]
        case "RegisterProduct", "ImportDatasheet", "RecordRuleCheck": [.steward, .admin]
        case "ReceiveProduct": [.receiver, .admin]
        case "AllocateBatch", "AllocateAdHocTask": [.inspector, .manager, .admin]
        case "CancelBatch": [.inspector, .manager, .admin]
        case "ExpireBatch": []  // the server's own expiry only
        default: [.inspector, .admin]  // collection and inspection work
        }
    }

    /// The roles allowed on each browser route. A page is open to the roles of the API endpoint
    /// that serves the same data; the dashboard to everyone (it shows each role only the sections
    /// of pages it may open), and an inspector's own analytics page (pinned to their id).
    public static func roles(for route: WebRoute) -> Set<UserRole> {
        switch route {
        case .loginForm, .login, .logout, .favicon: everyone
        case .home: roles(for: .page(.dashboard))
        case .photo: roles(for: .getProduct)
        case .checkDatasheet: [.steward, .manager, .admin]
        case .page(let page):
            switch page {
            case .dashboard: everyone
            case .coverage: roles(for: .coverage)
            // An inspector sees their own analytics only: the page's inspector filter is pinned to them.
            case .inspectors: roles(for: .inspectorAnalytics).union([.inspector])
            case .product: roles(for: .getProduct)
            case .batch: roles(for: .getBatch)
            case .history: roles(for: .history)
            case .search: roles(for: .searchProducts)
            case .categories: roles(for: .categories)
            // Checking a file records nothing: the steward's job, open to the readers of reports.
            case .rules: [.steward, .manager, .auditor, .admin]
            }
        }
    }

    /// Whether `role` may open `route`.
    public static func allows(_ role: UserRole, _ route: WebRoute) -> Bool { roles(for: route).contains(role) }

    /// Whether `role` may call `endpoint`.
    public static func allows(_ role: UserRole, _ endpoint: Endpoint) -> Bool { roles(for: endpoint).contains(role) }

    /// Whether the role may record checked datasheets in the log (`POST /v1/datasheets/check?record=true`),
    /// the same roles that may send `ImportDatasheet` and `RecordRuleCheck`.
    public static func mayRecordDatasheets(_ role: UserRole) -> Bool {
        roles(forCommand: "ImportDatasheet").contains(role) && roles(forCommand: "RecordRuleCheck").contains(role)
    }

    /// Whether the role sees only its own batches and tasks.
    public static func isLimitedToOwnWork(_ role: UserRole) -> Bool { role == .inspector }
}
