import AuditService

/// Who a page is drawn for: the logged-in user (the server) or the report's reader (static export).
///
/// An inspector sees only their own work: their batches, their analytics, their timeline; of a
/// product, every inspection's result, but other inspectors' without who, where or their photos.
public struct PageViewer: Sendable, Hashable {
    /// The user id (an inspector's id is the one batches are allocated to).
    public var userID: String
    /// The user's role: which pages they open (``PermissionTable/roles(forPage:)``) and whether
    /// they see only their own work.
    public var role: UserRole
    /// The session's CSRF token, written into every form the page has (nil in static files).
    public var csrfToken: String?

    /// A viewer from its parts.
    public init(userID: String, role: UserRole, csrfToken: String? = nil) {
        self.userID = userID
        self.role = role
        self.csrfToken = csrfToken
    }

    /// The reader of a static report (`itemaudit report`): a manager who sees everything.
    public static let report = PageViewer(userID: "report", role: .manager)

    /// Whether this viewer sees only their own batches and analytics.
    public var isLimitedToOwnWork: Bool { PermissionTable.isLimitedToOwnWork(role) }
}
