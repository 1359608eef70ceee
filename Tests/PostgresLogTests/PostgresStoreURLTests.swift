import PostgresLog
import Testing

@Suite("PostgreSQL URLs as libpq writes them")
struct PostgresStoreURLTests {
    @Test func aUnixSocketDirectoryInTheQuery() throws {
        let url = try PostgresStoreURL("postgres:///itemaudit?host=/tmp/pg.abc&user=postgres", environment: [:])
        #expect(url.isUnixSocket)
        #expect(url.host == "/tmp/pg.abc")
        #expect(url.unixSocketPath == "/tmp/pg.abc/.s.PGSQL.5432")
        #expect(url.database == "itemaudit")
        #expect(url.user == "postgres")
        #expect(url.redacted == "postgres://postgres@/itemaudit?host=/tmp/pg.abc")
    }

    @Test func aHostPortUserAndPasswordThatNeverShows() throws {
        let url = try PostgresStoreURL(
            "postgresql://audit:s3cret@db.example:6543/ledger?sslmode=require", environment: [:])
        #expect(!url.isUnixSocket)
        #expect(url.host == "db.example")
        #expect(url.port == 6543)
        #expect(url.user == "audit")
        #expect(url.password == "s3cret")
        #expect(url.sslMode == "require")
        #expect(url.redacted == "postgres://audit@db.example:6543/ledger")
        #expect(!url.description.contains("s3cret"))
    }

    @Test func defaultsComeFromTheEnvironmentAsInLibpq() throws {
        let url = try PostgresStoreURL(
            "postgres://", environment: ["PGHOST": "/run/pg", "PGUSER": "ia", "PGPASSWORD": "pw", "PGPORT": "5433"])
        #expect(url.host == "/run/pg")
        #expect(url.user == "ia")
        #expect(url.database == "ia")
        #expect(url.port == 5433)
        #expect(url.password == "pw")
    }

    @Test(arguments: [
        "itemaudit-data", "postgres:///db?sslmode=sometimes", "postgres:///db?port=99999",
        "postgres:///db?pool=3",
    ])
    func badURLsAreRefusedWithTheReason(text: String) {
        #expect(throws: PostgresLogError.self) { _ = try PostgresStoreURL(text, environment: [:]) }
    }

    @Test func aPasswordInABadURLIsNotRepeated() {
        do {
            _ = try PostgresStoreURL("postgres://u:hunter2@h/db?bogus=1", environment: [:])
            Issue.record("an unknown parameter was accepted")
        } catch let error as PostgresLogError {
            #expect(error.code == .badURL)
            #expect(!error.message.contains("hunter2"))
            #expect(error.message.contains("bogus"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
