import AuditLog
import AuditService
import Chronology
import Datasheets
import Foundation
import GS1
import Inspection
import Logging
import Rules

/// The `demo` job: a realistic history through the real command path, a supplier's datasheets
/// checked and recorded, the projections rebuilt and the log verified — everything a new user
/// needs to look at each kind of report.
public struct DemoScenario: Sendable {
    /// The sizes and seed of the demo.
    public struct Configuration: Sendable {
        /// The history: catalogue, inspectors, locations and days (the seed included).
        public var history: WorkloadGenerator.Configuration
        /// How many updated supplier datasheets are imported and checked after the history.
        public var supplierDatasheets: Int

        public init(history: WorkloadGenerator.Configuration, supplierDatasheets: Int = 1000) {
            self.history = history
            self.supplierDatasheets = supplierDatasheets
        }
    }

    /// What the demo did and found.
    public struct Report: Sendable {
        public var dataDirectory: URL
        public var history: WorkloadGenerator.Report
        /// The supplier file the data steward checked, inside the data directory.
        public var datasheetsFile: URL
        public var check: CheckSummary
        /// Failing findings per rule id, most frequent first.
        public var failingRules: [(rule: String, count: Int)]
        public var recorded: Int
        public var projections: ReplayReport
        public var verification: VerificationReport
        /// A product with inspections and a failed rule check: the one whose history the demo shows.
        public var sampleGTIN: String?
        /// The last day of the simulated history.
        public var end: Timestamp
        /// The accounts made for trying the web pages and the API (demo data only).
        public var accounts: [DemoAccount]
    }

    /// A login made by the demo, with its password in the clear: demo data only, never a real account.
    public struct DemoAccount: Sendable, Hashable {
        public var username: String
        public var role: UserRole
        public var password: String
        /// The bcrypt hash of `password` (cost 10), computed once with a fixed salt so that the same
        /// seed gives the same log and head hash; the password is printed anyway.
        public var passwordHash: String
    }

    /// The demo's accounts: the manager the web pages are for, an inspector of the generated
    /// history (who sees only their own batches) and an auditor. Known passwords, printed by the
    /// demo: they exist only in a demo's data directory.
    public static let accounts = [
        DemoAccount(
            username: "manager-1", role: .manager, password: "manager-demo-password",
            passwordHash: "$2b$10$V9wHQriL5XR8CP6LyznuvOehcRNMEiotkdHMWNQCQG0f3L08XeUE6"),
        DemoAccount(
            username: "inspector-1", role: .inspector, password: "inspector-demo-password",
            passwordHash: "$2b$10$U5obmak38pQlzs9bfH9AOusX5o/cMAwRofqb4x8956QAj4touMgTS"),
        DemoAccount(
            username: "auditor-1", role: .auditor, password: "auditor-demo-password",
            passwordHash: "$2b$10$JN/jfa1w6A.rPX4N1.TKZuAg9jZPoYFUYX6lk5M0Zu4miZmsfKCoy"),
    ]

    /// The file whose presence marks a directory as one `demo` made, so a later demo may replace it.
    public static let markerName = DataDirectoryProbe.demoMarkerName

    public var configuration: Configuration
    public var logger: Logger

    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Makes `directory` a fresh, empty demo directory: replaces one an earlier demo made, refuses
    /// to touch any other directory that holds files.
    public static func prepare(_ directory: URL) throws(DemoError) {
        let files = FileManager.default
        let marker = directory.appendingPathComponent(markerName)
        if DataDirectoryProbe.isFile(directory) {
            throw DemoError(
                "\(directory.path) is a file, not a directory (pass a new or empty --data directory; nothing was changed)"
            )
        }
        if let contents = try? files.contentsOfDirectory(atPath: directory.path), !contents.isEmpty {
            guard files.fileExists(atPath: marker.path) else {
                throw DemoError(
                    "\(directory.path) holds files that the demo did not make "
                        + "(pass an empty or new --data directory; nothing was changed)")
            }
            do { try files.removeItem(at: directory) } catch {
                throw DemoError("cannot replace the earlier demo in \(directory.path): \(error)")
            }
        }
        do {
            try files.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data("made by itemaudit demo; a later demo replaces this directory\n".utf8).write(to: marker)
        } catch {
            throw DemoError("cannot create \(directory.path): \(error) (pass a writable --data directory)")
        }
    }

    /// Runs every step in `directory` (see ``prepare(_:)``), reporting each step's name as it starts.
    /// `progress` is told the days simulated so far and the total while the history is generated.
    public func run(
        in directory: URL, step: @Sendable (String) -> Void,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> Report {
        let clock = ManualClock(configuration.history.start)
        let service = try await AuditService.open(dataDirectory: directory, clock: clock, logger: logger)
        step("generating \(configuration.history.days) days of inspections through the command path")
        let history = try await WorkloadGenerator(configuration: configuration.history).run(
            service: service, clock: clock, progress: progress)

        step("checking \(configuration.supplierDatasheets) supplier datasheets and recording the findings")
        clock.advance(microseconds: 3_600_000_000)
        let datasheetsFile = directory.appendingPathComponent("imports/supplier-datasheets.jsonl")
        try await writeSupplierDatasheets(to: datasheetsFile, service: service)
        let engine = try BuiltInRuleSets.engine()
        var check = CheckSummary()
        var failing: [String: Int] = [:]
        var checked: [(datasheet: Datasheet, report: DatasheetReport)] = []
        try DatasheetImporter.read(path: datasheetsFile.path) { record in
            if case .datasheet(let datasheet, _) = record {
                let report = engine.check(datasheet)
                check.add(report)
                for finding in report.failures { failing[finding.rule, default: 0] += 1 }
                checked.append((datasheet, report))
            }
            return true
        }
        let recordings = try await service.record(
            checked: checked, ruleSets: engine.ruleSets.map(\.name), source: "supplier-datasheets.jsonl",
            actor: "data-steward")
        let failedChecks = Set(
            zip(checked, recordings).compactMap { item, recording in
                item.report.failures.isEmpty || recording.status != .recorded
                    ? nil : recording.datasheetID?.split(separator: "-").dropFirst().first.map(String.init)
            })
        let sampleGTIN = await Self.sampleProduct(in: service.state, failedChecks: failedChecks)
        let end = clock.now()
        step("adding the demo accounts (\(Self.accounts.map(\.username).joined(separator: ", ")))")
        for account in Self.accounts {
            // manager-1 and inspector-1 are in the generated history already: they log in as themselves.
            _ = try await service.execute(
                identity: .addUser(
                    UserAdded(
                        username: account.username, name: account.username, roles: [account.role],
                        passwordHash: account.passwordHash)),
                commandID: "demo-user-\(account.username)", actor: "demo")
        }
        try await service.close()

        step("rebuilding the projections from the log")
        let projections = try AuditQueries.open(DataDirectory(directory), logger: logger).refresh()

        step("verifying every frame and the hash chain")
        let verification = try AuditQueries.verify(DataDirectory(directory))
        return Report(
            dataDirectory: directory, history: history, datasheetsFile: datasheetsFile, check: check,
            failingRules: failing.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) },
            recorded: recordings.count { $0.status == .recorded }, projections: projections,
            verification: verification, sampleGTIN: sampleGTIN, end: end, accounts: Self.accounts)
    }

    /// Updated datasheets for catalogue base units, as a supplier's JSON Lines export would carry them.
    private func writeSupplierDatasheets(to file: URL, service: AuditService) async throws {
        let bases = await service.state.products.values
            .filter { $0.registration.productType == .base }
            .map(\.registration)
            .sorted { $0.gtin < $1.gtin }
        var generator = DatasheetGenerator(seed: configuration.history.seed &+ 0xDA7A, defectRate: 0.15)
        var lines: [String] = []
        let kinds: [DatasheetGenerator.Kind] = [.food, .food, .food, .drink, .alcoholicDrink, .annexVFood]
        for (index, product) in bases.prefix(configuration.supplierDatasheets).enumerated() {
            var sheet = generator.nextBase(kinds[index % kinds.count])
            for position in sheet.attributes.indices {
                let path = sheet.attributes[position].path
                // A generated check-digit defect stays: its GTIN is not the catalogue's on purpose.
                if path == "gtin", (try? GTIN(sheet.attributes[position].value)) != nil {
                    sheet.attributes[position].value = product.gtin
                } else if path.hasPrefix("productName") {
                    sheet.attributes[position].value = product.name
                } else if path == "brandName" {
                    sheet.attributes[position].value = product.brand
                }
            }
            lines.append(DatasheetJSONWriter.jsonLine(sheet))
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
    }

    /// A product inspected several times whose new datasheet failed a rule check (the most telling
    /// history), else any inspected product.
    private static func sampleProduct(in state: InspectionState, failedChecks: Set<String>) -> String? {
        let inspected = state.products.values.filter { $0.inspectionCount > 1 }
        let telling = inspected.filter { failedChecks.contains($0.gtin) }
        return (telling.isEmpty ? inspected : telling).map(\.gtin).min()
    }
}

/// Why the demo could not run, with what to do.
public struct DemoError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
