import AuditService
import Foundation
import Hummingbird
import NIOPosix

extension Routes {
    struct RuleRow: Encodable {
        var id: String
        var set: String
        var severity: String
        var applies: String
        var title: String
        var message: String
        var reference: String
    }

    struct RuleList: Encodable {
        var rules: [RuleRow]
    }

    /// The built-in rule sets, compiled once per process (every rule, for the list).
    static let allRules = Result { try RuleBook.engine(subject: nil) }
    /// The built-in rule sets for supplier datasheets (what an upload is checked against by default).
    static let masterDataRules = Result { try RuleBook.engine(subject: .masterData) }

    /// `GET /v1/rules?set=`: every built-in rule, or one set's.
    func listRules(_ request: Request) throws -> Response {
        let query = Query(request)
        let set = query["set"]
        if let set, !RuleBook.setNames.contains(set) {
            throw Problem.badRequest(
                "invalid-query", "no rule set '\(set)'",
                remedy: "choose one of \(RuleBook.setNames.joined(separator: ", "))")
        }
        let engine = try Self.allRules.get()
        let rules = engine.rules.filter { set == nil || $0.ruleSet == set }.map {
            RuleRow(
                id: $0.id, set: $0.ruleSet, severity: $0.severity.rawValue, applies: $0.applies.rawValue,
                title: $0.title, message: $0.message, reference: $0.reference)
        }
        return try json(RuleList(rules: rules))
    }

    struct Recording: Encodable {
        var gtin: String
        var datasheetID: String?
        var status: String
        var reason: String?
        var positions: Positions?
    }

    struct CheckResult: Encodable {
        var summary: CheckSummary
        /// Every finding of the upload, counted.
        var findingCount: Int
        /// The first `limit` findings, in upload order (`?format=csv` has them all).
        var findings: [DatasheetFinding]
        /// Whether findings were left out of `findings`.
        var truncated: Bool
        /// With `?record=true`: how each datasheet entered the log.
        var recorded: [Recording]?
        /// The log position after recording: pass it as `waitFor` to read the product's history.
        var position: UInt64?
    }

    /// Findings in a JSON answer by default, and at most (`?limit=`).
    static let defaultFindingLimit = 100
    static let maxFindingLimit = 1000

    /// The datasheet format a request's content type names.
    static func datasheetFormat(contentType: String?) -> DatasheetFormat? {
        switch mediaType(contentType) {
        case "application/ld+json", "application/json": return .jsonld
        case "application/jsonl", "application/x-ndjson", "application/x-jsonlines", "application/jsonlines":
            return .jsonl
        case "text/csv": return .csv
        case "application/xml", "text/xml": return .xml
        default: return nil
        }
    }

    /// `POST /v1/datasheets/check?rules=&record=&limit=&format=`: datasheets in the body (JSON-LD,
    /// JSON Lines or CSV, as the content type says) checked against the rule sets on the check
    /// workers (never an event loop; 503 when they are all taken). The answer has the totals and
    /// the first `limit` findings; `format=csv` streams every finding instead. With `record=true`
    /// (stewards) the datasheets and their findings are appended to the log like
    /// `itemaudit check --record`. A record that cannot be read refuses the whole upload (400
    /// naming its line), nothing appended.
    func checkDatasheets(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let query = Query(request)
        let record: Bool
        switch query["record"] {
        case nil, "false": record = false
        case "true": record = true
        case let other?:
            throw Problem.badRequest(
                "invalid-query", "record must be true or false, not '\(other)'", remedy: "fix record")
        }
        let csv: Bool
        switch query["format"] {
        case nil, "json": csv = false
        case "csv": csv = true
        case let other?:
            throw Problem.badRequest(
                "invalid-query", "format must be json or csv, not '\(other)'", remedy: "fix format")
        }
        let limitRange = 1...Self.maxFindingLimit
        let chosenLimit = try query["limit"].map { text in
            guard let value = Int(text), limitRange.contains(value) else {
                throw Problem.badRequest(
                    "invalid-query", "limit must be a whole number from 1 to \(Self.maxFindingLimit), not '\(text)'",
                    remedy: "fix limit, or ask for format=csv to have every finding")
            }
            return value
        }
        if record, !PermissionTable.mayRecordDatasheets(user.roles) {
            throw Problem.forbidden("only stewards record datasheets in the log", remedy: "leave out ?record=true")
        }
        if record, csv {
            throw Problem.badRequest(
                "invalid-query", "format=csv only checks; it cannot record",
                remedy: "record with the JSON answer, then ask for the CSV without record")
        }
        guard let format = Self.datasheetFormat(contentType: request.headers[.contentType]) else {
            throw Problem(
                .unsupportedMediaType, "unsupported-media-type",
                "send datasheets as application/ld+json (or application/json), application/x-ndjson, text/csv or application/xml (GDSN CIN)",
                remedy: "set Content-Type to the body's format")
        }
        let sets = (query["rules"] ?? "").split(separator: ",").map(String.init)
        if let unknown = sets.first(where: { !RuleBook.setNames.contains($0) }) {
            throw Problem.badRequest(
                "invalid-query", "no rule set '\(unknown)'",
                remedy: "choose among \(RuleBook.setNames.joined(separator: ", "))")
        }
        let engine = sets.isEmpty ? try Self.masterDataRules.get() : try RuleBook.engine(selection: sets)
        // The route's gate has already refused a body over the datasheet limit (413).
        var request = request
        let body = Array(try await request.collectBody(upTo: server.configuration.maxDatasheetBytes).readableBytesView)
        if csv { return try await findingsCSV(body, format: format, engine: engine) }
        let sampleLimit = chosenLimit ?? Self.defaultFindingLimit
        let workers = server.checkWorkers
        let checked:
            (
                items: [(datasheet: Datasheet, report: DatasheetReport)], scanned: DatasheetUpload.Scanned,
                sample: FindingSample
            )
        do {
            checked = try await workers.run {
                var sample = FindingSample(limit: sampleLimit)
                // Only recording keeps every datasheet; a check keeps the sample and the totals.
                if record {
                    let all = try DatasheetUpload.check(body, format: format, engine: engine)
                    for item in all.items { sample.add(item.report, on: item.datasheet) }
                    let scanned = DatasheetUpload.Scanned(unreadable: all.unreadable, summary: all.summary)
                    return (all.items, scanned, sample)
                }
                let scanned = try DatasheetUpload.scan(body, format: format, engine: engine) { datasheet, report in
                    sample.add(report, on: datasheet)
                    return true
                }
                return ([], scanned, sample)
            }
        } catch let issue as ImportIssue {
            throw Self.invalidDatasheets([issue])
        }
        guard checked.scanned.unreadable.isEmpty else { throw Self.invalidDatasheets(checked.scanned.unreadable) }
        var result = CheckResult(
            summary: checked.scanned.summary, findingCount: checked.sample.total, findings: checked.sample.findings,
            truncated: checked.sample.truncated)
        if record {
            let recordings = try await service.record(
                checked: checked.items, ruleSets: engine.ruleSets.map(\.name), source: "upload by \(user.username)",
                actor: user.username)
            result.recorded = recordings.map {
                Recording(
                    gtin: $0.gtin, datasheetID: $0.datasheetID, status: $0.status.rawValue, reason: $0.reason,
                    positions: $0.positions.map { Positions(first: $0.lowerBound, last: $0.upperBound) })
            }
            result.position = await service.appliedPosition
        }
        return try json(result)
    }

    /// Every finding of `body` as CSV. The check writes it to a spool on a worker, so an
    /// unreadable record is still a 400 (not a cut-off CSV) and the worker is free before the
    /// client reads a byte; the answer is then read from the spool a chunk at a time.
    func findingsCSV(_ body: [UInt8], format: DatasheetFormat, engine: RuleEngine) async throws -> Response {
        let workers = server.checkWorkers
        let ticket = try workers.admitSpool()
        let outcome: FindingsCSVSpool.Outcome
        do {
            outcome = try await workers.run {
                try FindingsCSVSpool.write(body, format: format, engine: engine)
            }
        } catch let issue as ImportIssue {
            throw Self.invalidDatasheets([issue])
        }
        switch outcome {
        case .unreadable(let issues): throw Self.invalidDatasheets(issues)
        case .written(let spool): return spool.response(holding: ticket, fileName: "findings.csv")
        }
    }

    /// A 400 naming the first unreadable record's line and field; every issue rides along.
    static func invalidDatasheets(_ issues: [ImportIssue]) -> Problem {
        let first = issues[0]
        let place = "line \(first.line)" + (first.field.map { ", field '\($0)'" } ?? "")
        var problem = Problem.badRequest(
            "invalid-datasheet",
            "\(issues.count) record(s) of the body cannot be read; the first, \(place): \(first.message)",
            remedy: "fix those records and send the body again (nothing was checked or recorded)")
        let list: [[String: Any]] = issues.map { issue in
            var entry: [String: Any] = ["line": issue.line, "message": issue.message]
            if let field = issue.field { entry["field"] = field }
            return entry
        }
        if let data = try? JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]) {
            problem.extra["issues"] = String(decoding: data, as: UTF8.self)
        }
        return problem
    }
}
