import AuditService

/// Which roles may open which page: the permission table's (AuditService). An inspector opens
/// only their own batches and analytics (the pages filter on ``PageViewer/userID``).
enum PageAccess {
    /// Throws a 403 naming the role when `viewer` may not open `page`.
    static func check(_ page: PageName, _ viewer: PageViewer) throws {
        if let denial = denial(page, viewer) { throw denial }
    }

    /// The 403 for `viewer` on `page`, nil when they may open it.
    static func denial(_ page: PageName, _ viewer: PageViewer) -> ReportError? {
        let roles = PermissionTable.roles(forPage: page)
        guard !PermissionTable.permits(viewer.roles, roles) else { return nil }
        return ReportError.forbidden(
            "the \(page.title.lowercased()) page is for " + roles.map(\.name).sorted().joined(separator: ", ")
                + "; you are logged in as \(viewer.roleNames) (ask an administrator for access)")
    }

    /// Whether `viewer` may see `page` at all (for links and dashboard sections).
    static func allows(_ page: PageName, _ viewer: PageViewer) -> Bool {
        PermissionTable.permits(viewer.roles, PermissionTable.roles(forPage: page))
    }
}
