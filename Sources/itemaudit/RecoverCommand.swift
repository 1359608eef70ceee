import ArgumentParser
import AuditService
import Foundation
import Logging

/// `itemaudit recover [--cut-tail]`: shows the log's first damage, and cuts it there on request.
struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Show where the event log is damaged and, with --cut-tail, cut it there to write again.",
        discussion: """
            A writer refuses to cut damage to events it already acknowledged (exit 2 naming the \
            file): the damage could be a disk fault or tampering, and cutting gives the lost \
            positions to new events. Without --cut-tail this prints the first damage and what \
            cutting would remove (exit 1 when there is damage, 0 when the log is intact). With \
            --cut-tail the damaged frame and everything after it move to a quarantine file beside \
            the segment (nothing is deleted; `verify` keeps reporting it), the projection database \
            is removed to be rebuilt, and writing can go on. Restoring the log from a copy is the \
            alternative that loses nothing.

            Example:
              itemaudit recover --data ./itemaudit-data
              itemaudit recover --cut-tail --data ./itemaudit-data
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @Flag(help: "Cut the log at its first damage, moving the rest to a quarantine file.") var cutTail = false

    func run() throws {
        try data.requireFileLog("recover")
        let logger = Logger(label: "itemaudit.recover") { _ in SwiftLogNoOpLogHandler() }
        let outcome: LogRecoveryOutcome
        do {
            outcome = try AuditService.recoverLog(DataDirectory(data.url), cutTail: cutTail, logger: logger)
        } catch let error as AuditServiceError {
            throw CLIFailure.badInput(error.message)
        }
        let before = outcome.before
        for file in before.quarantined {
            print("quarantined: \(file.name) (\(file.bytes) bytes\(file.acknowledged ? ", acknowledged events" : ""))")
        }
        guard let problem = before.problem else {
            print("intact: \(before.eventCount) events, last position \(before.lastPosition); nothing to recover")
            return
        }
        let acknowledged = before.acknowledgedLastPosition ?? before.lastPosition
        let lost =
            acknowledged > before.lastPosition
            ? "positions \(before.lastPosition + 1)-\(acknowledged), acknowledged" : "no acknowledged event"
        print("damaged: \(problem.segment) offset \(problem.offset): \(problem.reason)")
        print("intact up to position \(before.lastPosition); cutting there removes \(lost)")
        guard let cut = outcome.cut else {
            throw CLIFailure.problemsFound(
                "the log is damaged at \(problem.segment) offset \(problem.offset) (restore it from a copy, or run `itemaudit recover --cut-tail` to cut it there)"
            )
        }
        for name in cut.quarantineFiles { print("moved to quarantine: \(name)") }
        if let after = outcome.after {
            print("the log now ends at position \(after.lastPosition), head hash \(after.headHash)")
        }
    }
}
