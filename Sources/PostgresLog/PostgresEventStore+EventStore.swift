import AuditLog

/// The PostgreSQL store keeps every promise of the file log (the conformance tests check both).
extension PostgresEventStore: EventStore {}
