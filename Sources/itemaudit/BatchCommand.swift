import ArgumentParser
import AuditService
import Foundation

/// `itemaudit batch ID`: a batch's state and its tasks.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "A batch's status (0–7), counts and expiry, and the state of each of its tasks.",
        discussion: """
            Collection status 0–3, inspection status 1–4, skip reason 0–2, as the seed numbers them. \
            Exit code 2 when there is no such batch.

            Example:
              itemaudit batch B42 --format table
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption

    @Argument(help: "The batch id.")
    var id: String

    func run() throws {
        guard let batch = try ProjectionAccess.queries(data.url).batch(id) else {
            throw CLIFailure.badInput(
                "no batch \(id) in the log (check the id, e.g. with itemaudit history --inspector)")
        }
        output.format.emit(batch) {
            if output.format == .table {
                print(
                    "batch \(batch.batchID): status \(batch.status)\(batch.paused ? " (paused)" : "")\(batch.expired ? " (expired)" : ""), "
                        + "inspector \(batch.inspectorID), location \(batch.locationID), mode \(batch.mode), "
                        + "allocated \(ProjectionAccess.time(batch.allocatedAt)), expires \(ProjectionAccess.time(batch.expiresAt)); "
                        + "\(batch.taskCount) tasks, \(batch.collected) collected, \(batch.skipped) skipped, "
                        + "\(batch.passed) passed, \(batch.failed) failed, \(batch.photos) photos")
            }
            var table = TextTable(
                columns: [
                    "task", "gtin", "collection", "skip_reason", "inspection", "verdicts", "pass", "warn", "fail",
                    "unable", "photos",
                ],
                rightAligned: [2, 3, 4, 5, 6, 7, 8, 9, 10])
            for task in batch.tasks {
                table.append([
                    task.taskID, task.gtin, String(task.collectionStatus), task.skipReason.map(String.init) ?? "-",
                    task.inspectionStatus.map(String.init) ?? "-", String(task.verdicts), String(task.passed),
                    String(task.warning), String(task.failure), String(task.unable), String(task.photos),
                ])
            }
            return table
        }
    }
}
