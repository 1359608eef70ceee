import Logging
import PostgresNIO
import PostgresTestSupport
import Testing

@testable import PostgresLog

@Suite("The settings every connection of a store starts with")
struct ConnectionSettingsTests {
    static let logger = Logger(label: "itemaudit.test.postgres") { _ in SwiftLogNoOpLogHandler() }

    /// Each page of a replay is its own statement; without statistics their estimated costs pass
    /// `jit_above_cost`, and compiling every plan with LLVM made replay two to three times slower.
    @Test func aStoreConnectionHasJITOffWhileTheServerHasItOn() throws {
        let database = try TemporaryDatabase()
        let store = try PostgresEventStore.open(url: database.url, logger: Self.logger)
        defer { try? store.close() }
        func setting(_ sql: String) throws -> [String] {
            try store.pool.withConnection { connection in
                try connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).wait()
                    .map { try $0.decode(String.self) }
            }
        }
        #expect(try setting("SHOW jit") == ["off"])
        // The server itself keeps its own default: only the store's sessions change.
        #expect(try setting("SELECT boot_val FROM pg_settings WHERE name = 'jit'") == ["on"])
    }
}
