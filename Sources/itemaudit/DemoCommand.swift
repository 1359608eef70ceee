import ArgumentParser
import AuditService
import Foundation
import Logging
import SampleData

/// `itemaudit demo`: the main job — a realistic history, checked datasheets, the reports and the proof.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Build a realistic 90-day audit history and show what each kind of user looks at.",
        discussion: """
            In a fresh data directory: generates a seeded 90-day inspection history through the real \
            command path (12 inspectors, 8 locations, 5,000 products), imports a supplier's updated \
            datasheets and checks them against every rule set (recording the findings), rebuilds the \
            projections and verifies the log. Prints the coverage summary, the inspector analytics, one \
            product's quality history, the rule-check summary and the head hash, then the next commands \
            to try. A later demo replaces a directory an earlier demo made; any other non-empty \
            directory is refused and left as it was.

            Example:
              itemaudit demo
              itemaudit demo --data /tmp/demo --seed 7 --days 30
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var size: HistorySizeOptions
    @Option(help: "Number of supplier datasheets to import and check.") var datasheets = 1000
    @Flag(help: "Print only the reports, not the progress of each step.") var quiet = false

    func validate() throws {
        guard (0...1_000_000).contains(datasheets) else { throw ValidationError("--datasheets must be 0 to 1000000") }
    }

    func run() async throws {
        try data.requireFileLog("demo")
        let directory = data.url
        try Self.refuseIfBeingWritten(directory)
        do { try DemoScenario.prepare(directory) } catch { throw CLIFailure.badInput(error.description) }
        var logger = Logger(label: "itemaudit.demo")
        logger.logLevel = .warning
        let scenario = DemoScenario(
            configuration: .init(
                history: size.configuration,
                supplierDatasheets: datasheets),
            logger: logger)
        let started = ContinuousClock.now
        let quiet = quiet
        let report: DemoScenario.Report
        do {
            let bar = ProgressBar.onTerminal(quiet: quiet)
            report = try await scenario.run(
                in: directory,
                step: { step in
                    if !quiet { FileHandle.standardError.write(Data("demo: \(step)…\n".utf8)) }
                },
                progress: { bar.update(UInt64($0), of: UInt64($1)) })
            bar.finish()
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure.badInput("the demo stopped: \(error) (the data directory holds what was written so far)")
        }
        let elapsed = ContinuousClock.now - started
        try print(Self.render(report, seconds: Double(elapsed.components.seconds)))
    }

    /// A later demo replaces an earlier one: never while another process is writing its log.
    static func refuseIfBeingWritten(_ directory: URL) throws {
        // Only a directory an earlier demo made is replaced (prepare refuses any other, untouched).
        let marker = directory.appendingPathComponent(DemoScenario.markerName)
        guard FileManager.default.fileExists(atPath: marker.path) else { return }
        // An unreadable earlier demo is replaced like any other.
        if DataDirectory(directory).isBeingWritten {
            throw CLIFailure.badInput(
                "another process is writing the log in \(directory.path) (stop it before replacing the demo; nothing was changed)"
            )
        }
    }

    static func section(_ title: String) -> String { "\n== \(title)\n" }

    /// A word of a product name worth searching for: the one before the size ("jogurtti" in
    /// "Kultasato jogurtti 400 g").
    static func searchWord(_ name: String) -> String {
        let words = name.split(separator: " ")
        let size = words.firstIndex { $0.first?.isNumber == true } ?? words.endIndex
        return size > words.startIndex ? String(words[words.index(before: size)]) : String(words.first ?? "")
    }

    static func render(_ report: DemoScenario.Report, seconds: Double) throws -> String {
        let store = try AuditQueries.open(DataDirectory(report.dataDirectory))
        let history = report.history
        var out = "ItemAudit demo in \(report.dataDirectory.path) (\(Int(seconds.rounded())) s)\n"
        out +=
            "\(counted(history.workdays, "workday")): \(counted(Int(history.events), "event")) from "
            + "\(counted(history.commands, "command")) (\(history.refused) refused), \(counted(history.batches, "batch", "batches")) "
            + "(\(history.submitted) submitted, \(history.cancelled) cancelled, \(history.expired) expired), "
            + "\(counted(history.inspected, "inspection")) (\(history.failed) failed), \(counted(history.photosAttached, "photo")).\n"

        out += section("Manager: coverage by product type (itemaudit coverage --by type)")
        // No end: the header counts every inspection in the log, and so does `coverage` run afterwards.
        let coverage = try store.coverage(by: .type)
        out += CoverageCommand.table(coverage, by: .type).renderText()
        let modes = try store.coverage(by: .mode)
        out += "\nby inspection mode:\n" + CoverageCommand.table(modes, by: .mode).renderText()

        out += section("Manager: inspector analytics (itemaudit inspectors)")
        out += InspectorsCommand.table(try store.inspectors()).renderText()

        out += section("Data steward: rule checks of \(report.datasheetsFile.lastPathComponent) (itemaudit check)")
        let check = report.check
        out +=
            "\(counted(check.datasheets, "datasheet")): \(check.failed) failed, \(check.warnings) with warnings, "
            + "\(check.passed) passed; \(report.recorded) recorded in the log with their findings.\n"
        if !report.failingRules.isEmpty {
            var table = TextTable(columns: ["rule", "failingDatasheets"], rightAligned: [1])
            for (rule, count) in report.failingRules.prefix(8) { table.append([rule, String(count)]) }
            out += "most frequent failures:\n" + table.renderText()
        }

        if let gtin = report.sampleGTIN, let quality = try store.product(gtin: gtin) {
            out += section("Auditor: quality history of one product (itemaudit product \(gtin))")
            out += ProductCommand.headline(quality) + "\n" + ProductCommand.table(quality).renderText()
        }

        out += section("Auditor: verification (itemaudit verify)")
        out += VerifyCommand.table(report.verification).renderText()
        out += "Write down the head hash: a later verify printing the same hash proves nothing before it changed.\n"

        let data = report.dataDirectory.path
        let dataOption = data == DataDirectoryOption.defaultPath ? "" : " --data \(data)"
        let sample = report.sampleGTIN ?? "GTIN"
        let word =
            try report.sampleGTIN.flatMap { try store.product(gtin: $0)?.product?.name }
            .map(Self.searchWord) ?? "jogurtti"
        out += section("Next commands to try")
        out += """
            itemaudit coverage --by inspector\(dataOption)
            itemaudit inspectors --format csv\(dataOption)
            itemaudit history --gtin \(sample)\(dataOption)
            itemaudit product \(sample) --format json\(dataOption)
            itemaudit search \(word)\(dataOption)
            itemaudit check \(report.datasheetsFile.path) --format json
            itemaudit replay --until \(report.end.iso8601.prefix(10)) --out as-of.sqlite\(dataOption)
            itemaudit verify\(dataOption)

            """
        out += section("Web pages: start the server, then open the dashboard in a browser")
        out += "itemaudit serve\(dataOption)\n"
        out += "then open http://127.0.0.1:8080/ and log in as \(report.accounts.first?.username ?? "manager-1")\n"
        out += "demo credentials (made for this demo data only; never reuse them for real accounts):\n"
        var accounts = TextTable(columns: ["username", "role", "password"], rightAligned: [])
        for account in report.accounts { accounts.append([account.username, account.role.name, account.password]) }
        out += accounts.renderText()
        return out
    }
}
