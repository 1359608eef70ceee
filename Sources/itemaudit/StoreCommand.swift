import ArgumentParser
import AuditService
import Foundation

/// `itemaudit store copy`: moves a whole log between stores.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Copy a whole event log from one store to another.",
        discussion: """
            Example:
              itemaudit store copy --from ./itemaudit-data --to /mnt/new/itemaudit-data
            """,
        subcommands: [StoreCopyCommand.self]
    )
}

struct StoreCopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract:
            "Copy every event to an empty store, keeping positions, times, actors, command ids and the head hash.",
        discussion: """
            Reads the log of --from (a writer may keep running there; the copy ends where the log \
            ended when it started) and appends every record to the log of --to, which must hold no \
            events yet. Either side may be a data directory or a PostgreSQL URL (postgres://…; its \
            schema is created when missing). Each record keeps its position, stream version, recorded-at and occurred-at \
            times, actor, command id and fingerprint, so `itemaudit verify` prints the same head hash \
            on both; the copy checks that before it reports success. Photos (<data>/blobs) are not \
            copied: copy that folder yourself.

            Example:
              itemaudit store copy --from ./itemaudit-data --to /mnt/new/itemaudit-data
              itemaudit store copy --from ./itemaudit-data --to postgres://audit@db.example/itemaudit
            """
    )

    @Option(help: ArgumentHelp("The data directory or PostgreSQL URL to copy from.", valueName: "dir|url"))
    var from: String
    @Option(
        help: ArgumentHelp(
            "The data directory or PostgreSQL URL to copy to (new, or without events).", valueName: "dir|url"))
    var to: String
    @OptionGroup var output: FormatOption

    func run() async throws {
        func directory(_ path: String) -> DataDirectory {
            DataDirectory(URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL)
        }
        let report: StoreCopy.Report
        if StoreCopy.isStoreURL(from) || StoreCopy.isStoreURL(to) {
            do {
                report = try await StoreCopy.copy(from: from, to: to)
            } catch let error as AuditServiceError {
                throw CLIFailure.badInput(error.message)
            }
        } else {
            report = try await StoreCopy.copy(from: directory(from), to: directory(to))
        }
        output.emit(report) {
            var table = TextTable(columns: ["field", "value"])
            table.append(["from", report.from])
            table.append(["to", report.to])
            table.append(["events", String(report.events)])
            table.append(["head hash", report.headHash])
            return table
        }
    }
}
