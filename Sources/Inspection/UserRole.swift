/// What a user may do: each command names the roles that may send it (``InspectionCommand/Kind/senders``),
/// and the permission table (AuditService) is keyed by it.
///
/// Stored in identity events as its integer code, so a new role appends a new code and never
/// renumbers an old one.
public enum UserRole: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Allocates, collects, inspects and submits their own batches (a device user).
    case inspector = 0
    /// Receives samples at an inspection centre.
    case receiver = 1
    /// Assigns and cancels batches; reads coverage and analytics.
    case manager = 2
    /// Imports supplier datasheets and runs the rule checks.
    case steward = 3
    /// Reads everything, changes nothing.
    case auditor = 4
    /// Everything, including registering locations and people.
    case admin = 5

    /// The lower-case name used on the command line and in the API (`inspector`, `admin`, …).
    public var name: String {
        switch self {
        case .inspector: "inspector"
        case .receiver: "receiver"
        case .manager: "manager"
        case .steward: "steward"
        case .auditor: "auditor"
        case .admin: "admin"
        }
    }

    /// The role with this lower-case name, or nil.
    public init?(name: String) {
        guard let role = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = role
    }
}
