extension AuditQueries {
    /// Samples received at the inspection centres, newest first; a receiver's own with `receivedBy`.
    public func receptions(receivedBy: String? = nil, limit: Int = 20, offset: Int = 0) throws -> ReceptionPage {
        try withProjections { try $0.receptions(receivedBy: receivedBy, limit: limit, offset: offset) }
    }

    /// One reception by its id, or nil when the log has none.
    public func reception(id: String) throws -> ReceptionRow? {
        try withProjections { try $0.reception(id: id) }
    }
}
