import Inspection

/// The one table deciding who may do what, by role: each command type, each query the API and
/// the pages answer, and each page. The edges read it (the server maps its endpoints and browser
/// routes onto it, the web pages check each page against it); no edge writes roles of its own.
///
/// The roles that may send a command are the command's own metadata (``InspectionCommand/Kind/senders``
/// in Inspection, beside the ids it touches), so a new command does not compile until they are
/// decided. An inspector is further limited to their own batches and tasks (``isLimitedToOwnWork(_:)``);
/// an auditor only reads.
public enum PermissionTable {
    /// Every role.
    public static let everyone = Set(UserRole.allCases)

    /// What the API and the pages answer, as far as roles tell them apart.
    public enum Query: CaseIterable, Sendable {
        /// Products with their datasheets and quality, the category tree, locations, code lists and
        /// the rules: what every role works from.
        case catalogue
        /// Batches, their tasks and the tasks' datasheets (an inspector's own only).
        case batches
        /// Coverage by product type, mode, location or inspector.
        case coverage
        /// Per-inspector analytics.
        case inspectorAnalytics
        /// Timelines of a product, batch, task or inspector, as of a point of the log.
        case history
        /// The log's verification.
        case verification
        /// A datasheet file checked against the rules, recording nothing (recording is a command:
        /// ``mayRecordDatasheets(_:)``).
        case datasheetCheck
        /// Samples received at the inspection centres (a receiver's own only).
        case receptions
    }

    /// The roles allowed to send commands of type `kind`: the command's metadata.
    public static func roles(forCommand kind: InspectionCommand.Kind) -> Set<UserRole> { kind.senders }

    /// The roles that may send at least one command type (a bundle of commands is for them).
    public static let commandSenders = InspectionCommand.Kind.allCases.reduce(into: Set<UserRole>()) {
        $0.formUnion($1.senders)
    }

    /// The roles allowed to read `query`.
    public static func roles(forQuery query: Query) -> Set<UserRole> {
        switch query {
        case .catalogue: everyone
        case .batches: [.inspector, .manager, .auditor, .admin]
        case .coverage, .inspectorAnalytics, .history: [.manager, .auditor, .admin]
        case .verification: [.auditor, .admin]
        case .datasheetCheck: [.steward, .manager, .admin]
        case .receptions: [.receiver, .manager, .auditor, .admin]
        }
    }

    /// The roles allowed to open `page`: those of the query that serves it. The dashboard is open
    /// to everyone (it shows each role only the sections of pages it may open).
    public static func roles(forPage page: PageName) -> Set<UserRole> {
        switch page {
        case .dashboard: everyone
        case .coverage: roles(forQuery: .coverage)
        // An inspector sees their own analytics only: the page's inspector filter is pinned to them.
        case .inspectors: roles(forQuery: .inspectorAnalytics).union([.inspector])
        case .product, .search, .categories: roles(forQuery: .catalogue)
        case .batch: roles(forQuery: .batches)
        case .history: roles(forQuery: .history)
        // Checking a file records nothing: the steward's job, open to the readers of reports.
        case .rules: roles(forQuery: .datasheetCheck).union([.auditor])
        case .receptions: roles(forQuery: .receptions)
        }
    }

    /// Whether the role may record checked datasheets in the log (`POST /v1/datasheets/check?record=true`),
    /// the same roles that may send `ImportDatasheet` and `RecordRuleCheck`.
    public static func mayRecordDatasheets(_ role: UserRole) -> Bool {
        roles(forCommand: .importDatasheet).contains(role) && roles(forCommand: .recordRuleCheck).contains(role)
    }

    /// Whether the role sees and acts on only its own batches and tasks: the service's ownership
    /// check on commands, the API's batch and analytics filters and the pages all ask this.
    public static func isLimitedToOwnWork(_ role: UserRole) -> Bool { role == .inspector }

    /// Whether the role sees only the receptions it entered itself: a receiver's list and the
    /// acknowledgements it may print.
    public static func isLimitedToOwnReceptions(_ role: UserRole) -> Bool { role == .receiver }
}

// A user may hold several roles (the seed's "inspector with a managerial role", 4.2.7): they may
// do what any of their roles may, and only a user without a role that acts on everyone's work
// is limited to their own. Every check of a user's permission goes through these.
extension PermissionTable {
    /// The roles whose holders act on everyone's work, so an inspector who also holds one of them
    /// is not limited to their own batches and tasks.
    public static let rolesOverOthersWork: Set<UserRole> = [.manager, .admin]

    /// Whether a user holding `roles` may do what `allowed` (a row of this table) permits: any of
    /// their roles is enough.
    public static func permits(_ roles: Set<UserRole>, _ allowed: Set<UserRole>) -> Bool {
        !roles.isDisjoint(with: allowed)
    }

    /// Whether a user holding `roles` may record checked datasheets: some role of theirs may send
    /// `ImportDatasheet` and some may send `RecordRuleCheck`.
    public static func mayRecordDatasheets(_ roles: Set<UserRole>) -> Bool {
        permits(roles, Self.roles(forCommand: .importDatasheet))
            && permits(roles, Self.roles(forCommand: .recordRuleCheck))
    }

    /// Whether a user holding `roles` sees and acts on only their own batches and tasks: an
    /// inspector without the manager or admin role.
    public static func isLimitedToOwnWork(_ roles: Set<UserRole>) -> Bool {
        roles.contains { isLimitedToOwnWork($0) } && roles.isDisjoint(with: rolesOverOthersWork)
    }

    /// Whether a user holding `roles` sees only the receptions they entered: a receiver without
    /// another role that reads everyone's receptions.
    public static func isLimitedToOwnReceptions(_ roles: Set<UserRole>) -> Bool {
        let readers = Self.roles(forQuery: .receptions)
        return roles.contains { isLimitedToOwnReceptions($0) }
            && !roles.contains { readers.contains($0) && !isLimitedToOwnReceptions($0) }
    }

    /// Who may manage accounts and device apps (the admin routes and pages).
    public static let accountAdministrators: Set<UserRole> = [.admin]
}
