import AuditService

/// Who a page is drawn for: the logged-in user (the server) or the report's reader (static export).
///
/// An inspector sees only their own work: their batches, their analytics, their timeline; of a
/// product, every inspection's result, but other inspectors' without who, where or their photos.
public struct PageViewer: Sendable, Hashable {
    /// The user id (an inspector's id is the one batches are allocated to).
    public var userID: String
    /// The user's roles: which pages they open (``PermissionTable/roles(forPage:)``, any of them
    /// is enough) and whether they see only their own work.
    public var roles: Set<UserRole>
    /// The session's CSRF token, written into every form the page has (nil in static files).
    public var csrfToken: String?

    /// A viewer from its parts.
    public init(userID: String, role: UserRole, csrfToken: String? = nil) {
        self.init(userID: userID, roles: [role], csrfToken: csrfToken)
    }

    /// A viewer holding several roles.
    public init(userID: String, roles: Set<UserRole>, csrfToken: String? = nil) {
        self.userID = userID
        self.roles = roles
        self.csrfToken = csrfToken
    }

    /// The roles by name in code order, as the page's header shows them (`inspector, manager`).
    public var roleNames: String { UserRole.ordered(roles).map(\.name).joined(separator: ", ") }

    /// The reader of a static report (`itemaudit report`): a manager who sees everything.
    public static let report = PageViewer(userID: "report", role: .manager)

    /// Whether this viewer sees only their own batches and analytics.
    public var isLimitedToOwnWork: Bool { PermissionTable.isLimitedToOwnWork(roles) }
}
