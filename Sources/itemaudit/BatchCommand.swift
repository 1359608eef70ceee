import ArgumentParser
import AuditService
import Foundation

/// `itemaudit batch ID`: a batch's state and its tasks.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "A batch's status, counts and expiry, and the state of each of its tasks.",
        discussion: """
            Tables and CSV print statuses, modes and skip reasons by name; JSON gives the seed's code \
            with its name beside it ("status": 6, "statusLabel": "submitted"). Exit code 2 when there \
            is no such batch.

            Example:
              itemaudit batch B42 --format table
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var asOf: AsOfOptions

    @Argument(help: "The batch id.")
    var id: String

    func run() throws {
        guard let batch = try asOf.queries(data).batch(id) else {
            throw CLIFailure.badInput(
                "no batch \(id) in the log (list the batches with itemaudit batches)")
        }
        output.emit(batch) {
            if output.format == .table {
                print(
                    "batch \(batch.batchID): \(batch.statusLabel)\(batch.paused ? " (paused)" : "")\(batch.expired ? " (expired)" : ""), "
                        + "inspector \(batch.inspectorID), location \(batch.locationID), mode \(batch.modeLabel), "
                        + "allocated \(ProjectionAccess.time(batch.allocatedAt)), expires \(ProjectionAccess.time(batch.expiresAt)); "
                        + "\(batch.taskCount) tasks, \(batch.collected) collected, \(batch.skipped) skipped, "
                        + "\(batch.passed) passed, \(batch.failed) failed, \(batch.photos) photos")
            }
            var table = TextTable(
                columns: [
                    "taskID", "gtin", "collectionStatusLabel", "skipReasonLabel", "inspectionStatusLabel",
                    "verdicts", "passed", "warning", "failure", "unable", "photos",
                ],
                rightAligned: [5, 6, 7, 8, 9, 10])
            for task in batch.tasks {
                table.append([
                    task.taskID, task.gtin, task.collectionStatusLabel, task.skipReasonLabel ?? "-",
                    task.inspectionStatusLabel ?? "-", String(task.verdicts), String(task.passed),
                    String(task.warning), String(task.failure), String(task.unable), String(task.photos),
                ])
            }
            return table
        }
    }
}
