import Foundation
import PostgresTestSupport
import Testing

/// `itemaudit store copy` between the file log and PostgreSQL, as a user runs it.
@Suite("store copy through PostgreSQL, end to end")
struct StoreCopyPostgresTests {
    @Test("the demo log copied file → PostgreSQL → file: verify prints the same head hash on every side")
    func fileToPostgresToFile() throws {
        let demo = try DemoFixture.demo()
        let database = try TemporaryDatabase()
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let head = try DemoFixture.headHash(demo.directory)

        let toDatabase = try ItemAuditBinary.run([
            "store", "copy", "--from", demo.directory.path, "--to", database.urlString, "--format", "json",
        ])
        #expect(toDatabase.status == 0, "\(toDatabase.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(toDatabase.stdout.utf8)) as? [String: Any]
        #expect(report?["headHash"] as? String == head)

        let projections = scratch.appendingPathComponent("pg-projections")
        let verify = try ItemAuditBinary.run([
            "verify", "--store", database.urlString, "--data", projections.path, "--format", "json",
        ])
        #expect(verify.status == 0, "\(verify.stderr)")
        let verified = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any]
        #expect(verified?["headHash"] as? String == head, "verify --store: \(verify.stdout)")

        // The same history reads back from the database (its projections in another directory).
        let history = ["history", "--batch", "B1", "--format", "json"]
        let original = try ItemAuditBinary.run(history + ["--data", demo.directory.path])
        let fromDatabase = try ItemAuditBinary.run(
            history + ["--data", projections.path, "--store", database.urlString])
        #expect(original.status == 0 && fromDatabase.stdout == original.stdout, "\(fromDatabase.stderr)")

        let back = scratch.appendingPathComponent("back")
        let toFile = try ItemAuditBinary.run(["store", "copy", "--from", database.urlString, "--to", back.path])
        #expect(toFile.status == 0, "\(toFile.stderr)")
        #expect(try DemoFixture.headHash(back) == head)

        // The database holds events now: a second copy into it is refused (exit 2, one line).
        let again = try ItemAuditBinary.run([
            "store", "copy", "--from", demo.directory.path, "--to", database.urlString,
        ])
        #expect(again.status == 2 && again.stderr.contains("already holds"), "\(again.stderr)")
    }

    @Test("a changed row in the database: verify --store exits 1 naming its position")
    func tamperedRowIsNamed() throws {
        let demo = try DemoFixture.demo()
        let database = try TemporaryDatabase()
        let scratch = try DemoFixture.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let copied = try ItemAuditBinary.run([
            "store", "copy", "--from", demo.directory.path, "--to", database.urlString,
        ])
        #expect(copied.status == 0, "\(copied.stderr)")
        try database.execute(
            """
            ALTER TABLE itemaudit_events DISABLE TRIGGER USER;
            UPDATE itemaudit_events SET payload = payload || '\\x00'::bytea WHERE position = 7;
            ALTER TABLE itemaudit_events ENABLE TRIGGER USER;
            """)
        let verify = try ItemAuditBinary.run(["verify", "--store", database.urlString, "--data", scratch.path])
        #expect(verify.status == 1)
        #expect(verify.stderr.contains("position 7"), "\(verify.stderr)")
    }
}
