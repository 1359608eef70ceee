import ArgumentParser
import AuditService
import Foundation

/// The `--data DIR` and `--store URL` options every command that reads or writes the store shares.
struct DataDirectoryOption: ParsableArguments {
    @Option(
        name: .customLong("data"),
        help: ArgumentHelp(
            "The data directory (default: $ITEMAUDIT_DATA, else ./itemaudit-data).",
            valueName: "dir"
        )
    )
    var explicitPath: String?

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "The event log in PostgreSQL, shared by several servers: a libpq URL such as postgres://user@host/db or postgres:///db?host=/socket/dir (default: $ITEMAUDIT_STORE, else the log in the data directory, which then holds this server's projections).",
            valueName: "url"
        )
    )
    var explicitStore: String?

    @Option(
        name: .customLong("store-pool-size"),
        help: ArgumentHelp("With --store: the most database connections to open.", valueName: "n"))
    var storePoolSize: Int = 8

    @Option(
        name: .customLong("store-timeout"),
        help: ArgumentHelp("With --store: milliseconds to wait to connect or for a free connection.", valueName: "ms"))
    var storeTimeout: Int = 10_000

    func validate() throws {
        guard storePoolSize >= 1, storeTimeout >= 1 else {
            throw ValidationError("--store-pool-size and --store-timeout must be at least 1")
        }
        do { try location.validate() } catch let error as AuditServiceError {
            throw ValidationError("\(error.message) (check --store or $ITEMAUDIT_STORE)")
        }
    }

    /// Where the event log is: --store, else $ITEMAUDIT_STORE, else the data directory.
    var location: LogStoreLocation {
        let url = explicitStore ?? ProcessInfo.processInfo.environment["ITEMAUDIT_STORE"]
        return LogStoreLocation(url: url, poolSize: storePoolSize, timeoutMilliseconds: storeTimeout)
    }

    /// Fails with exit 2 when the log is in PostgreSQL: for commands that work on the files of the
    /// data directory's log only.
    func requireFileLog(_ command: String) throws {
        guard location.isPostgres else { return }
        throw CLIFailure.badInput(
            "itemaudit \(command) works on the file log in the data directory, not on a PostgreSQL log (drop --store and $ITEMAUDIT_STORE)"
        )
    }

    /// The data directory used when neither --data nor $ITEMAUDIT_DATA names one, as an absolute path.
    static var defaultPath: String {
        URL(fileURLWithPath: "itemaudit-data", isDirectory: true).standardizedFileURL.path
    }

    /// The data directory this run uses.
    var url: URL {
        let path =
            explicitPath
            ?? ProcessInfo.processInfo.environment["ITEMAUDIT_DATA"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "itemaudit-data"
        return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }
}
