import Inspection

extension UserRole {
    /// `roles` in code order without repeats: how events, answers and the CLI write a set of roles,
    /// so the same set always reads (and hashes) the same.
    public static func ordered(_ roles: some Sequence<UserRole>) -> [UserRole] {
        Set(roles).sorted { $0.rawValue < $1.rawValue }
    }

    /// The one role an answer's `role` field names for clients that read one: the highest code
    /// (admin over auditor, steward, manager, receiver, inspector), which for a single role is that role.
    public static func primary(of roles: some Sequence<UserRole>) -> UserRole {
        roles.max { $0.rawValue < $1.rawValue } ?? .inspector
    }

    /// Roles from their names (`inspector`, `manager`, …), in code order.
    /// - Throws: ``IdentityRefusal`` (`.invalidRole`) naming the unknown name and the known ones, or
    ///   saying that none was given.
    public static func parse(names: some Sequence<String>) throws(IdentityRefusal) -> [UserRole] {
        var roles: [UserRole] = []
        for name in names {
            guard let role = UserRole(name: name) else {
                throw IdentityRefusal(
                    .invalidRole,
                    "unknown role '\(name)' (use one or more of \(UserRole.allCases.map(\.name).joined(separator: ", ")))"
                )
            }
            roles.append(role)
        }
        guard !roles.isEmpty else {
            throw IdentityRefusal(
                .invalidRole,
                "no role given (use one or more of \(UserRole.allCases.map(\.name).joined(separator: ", ")))")
        }
        return ordered(roles)
    }
}

extension PayloadWriter {
    /// A set of roles: its count, then each role's code.
    mutating func roles(_ roles: [UserRole]) {
        count(roles.count)
        for role in roles { code(role) }
    }
}

extension PayloadReader {
    /// A set of roles written by ``PayloadWriter/roles(_:)``; an empty set is damage, since every
    /// account has at least one role.
    mutating func roles() throws(PayloadDecodingError) -> [UserRole] {
        let count = try count()
        guard count > 0 else { throw PayloadDecodingError("an account with no role", offset: offset) }
        var roles: [UserRole] = []
        for _ in 0..<count { roles.append(try code(UserRole.self)) }
        return roles
    }
}

extension IdentityState.User {
    /// The one role an answer's `role` field names (``UserRole/primary(of:)``).
    public var primaryRole: UserRole { UserRole.primary(of: roles) }
    /// The roles in code order, by name (`["inspector", "manager"]`).
    public var roleNames: [String] { UserRole.ordered(roles).map(\.name) }
}
