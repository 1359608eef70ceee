import Foundation
import Logging
import PostgresLog

/// A fresh database on the test cluster (`ITEMAUDIT_TEST_PG_URL`, which tools/test sets from
/// tools/pg-cluster), dropped when the last reference goes away.
public final class TemporaryDatabase: Sendable {
    /// The variable naming the test cluster.
    public static let environmentVariable = "ITEMAUDIT_TEST_PG_URL"

    /// The new database's URL.
    public let url: PostgresStoreURL
    /// Its name.
    public let name: String
    private let cluster: PostgresStoreURL

    /// The test cluster's URL.
    /// - Throws: ``MissingCluster`` when the variable is unset: the test fails, it is not skipped.
    public static func clusterURL() throws -> PostgresStoreURL {
        guard let text = ProcessInfo.processInfo.environment[environmentVariable], !text.isEmpty else {
            throw MissingCluster()
        }
        return try PostgresStoreURL(text)
    }

    /// Creates `itemaudit_test_<random>` on the test cluster.
    public init() throws {
        cluster = try Self.clusterURL()
        name = "itemaudit_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        url = try PostgresAdmin.createDatabase(name, on: cluster, logger: Self.logger)
    }

    deinit { try? PostgresAdmin.dropDatabase(name, on: cluster, logger: Self.logger) }

    /// The URL as text, for command lines and environment variables.
    public var urlString: String {
        url.isUnixSocket
            ? "postgres:///\(name)?host=\(url.host)&port=\(url.port)&user=\(url.user)"
            : "postgres://\(url.user)@\(url.host):\(url.port)/\(name)"
    }

    /// Runs `sql` in this database.
    public func execute(_ sql: String) throws { try PostgresAdmin.execute(sql, on: url, logger: Self.logger) }

    /// The rows `sql` returns in this database, as text.
    public func rows(_ sql: String) throws -> [[String?]] { try PostgresAdmin.rows(sql, on: url, logger: Self.logger) }

    static let logger = Logger(label: "itemaudit.test.postgres") { _ in SwiftLogNoOpLogHandler() }
}

/// The error of a test that needs the PostgreSQL cluster and was not given one.
public struct MissingCluster: Error, CustomStringConvertible {
    public var description: String {
        "ITEMAUDIT_TEST_PG_URL is not set: this test needs a PostgreSQL cluster (run the tests through tools/test, or `export ITEMAUDIT_TEST_PG_URL=$(tools/pg-cluster start)`)"
    }
}
