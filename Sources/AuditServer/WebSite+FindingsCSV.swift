import AuditService
import Hummingbird

extension WebSite {
    /// The rules page's "every finding as CSV" button: the uploaded file checked into a spool on
    /// the check workers and sent as a download, one row per finding (the page lists the first
    /// ones only). A browser without scripts gets every finding this way.
    func findingsCSV(_ content: [UInt8], fileName: String, rules: [String]) async throws -> Response {
        guard let format = DatasheetFormat(fileName: fileName) else {
            throw WebRefusal(
                .badRequest, "The file must end in .jsonl, .json, .jsonld or .csv (the format is told by it).")
        }
        let engine: RuleEngine
        do {
            engine = try RuleBook.engine(selection: rules)
        } catch {
            throw WebRefusal(.badRequest, "\(error) Choose among \(RuleBook.setNames.joined(separator: ", ")).")
        }
        let workers = server.checkWorkers
        let outcome: FindingsCSVSpool.Outcome
        let ticket: CheckWorkers.Admissions.Ticket
        do {
            ticket = try workers.admitSpool()
            outcome = try await workers.run { try FindingsCSVSpool.write(content, format: format, engine: engine) }
        } catch let problem as Problem where problem.status == .serviceUnavailable {
            throw WebRefusal(
                .serviceUnavailable, "Other datasheet files are being checked; send yours again in a minute.")
        } catch let issue as ImportIssue {
            throw WebRefusal(.badRequest, "The file cannot be read: \(issue.message).")
        }
        switch outcome {
        case .unreadable(let issues):
            let first = issues[0]
            let place = "line \(first.line)" + (first.field.map { ", field '\($0)'" } ?? "")
            throw WebRefusal(
                .badRequest,
                "\(issues.count) record(s) of the file cannot be read; the first, \(place): \(first.message). "
                    + "Fix them and send the file again (the Check button lists them all).")
        case .written(let spool):
            return spool.response(holding: ticket, fileName: "findings-\(Self.fileNamePart(fileName)).csv")
        }
    }
}
