import AuditService

/// The rule-check page: a datasheet file's findings grouped by rule and by product, with each
/// rule's reference (EU 1169 article or GS1 standard) and the evidence (observed, expected).
///
/// On the server the tables show the first ``findingsShown`` rows and their CSV links hold those
/// rows only (the upload is not kept): the page's size does not grow with the file. The static
/// report's CSV files have every row.
struct RuleChecksPage {
    var checks: RuleCheckInput?
    var links: PageLinks
    /// Who the page is drawn for: the upload form is shown only to those who may post it.
    var viewer: PageViewer = .report
    /// Links to product pages (nil: the product is printed without a link).
    var productLink: (String) -> String? = { _ in nil }
    /// Findings (and datasheets with findings) listed on the page.
    static let findingsShown = 1000

    func content() -> PageContent {
        var content = PageContent(page: .rules, title: "Rule checks")
        // Those who act on datasheets may upload one; auditors read the page without the form.
        let mayUpload = PermissionTable.permits(viewer.roles, PermissionTable.roles(forQuery: .datasheetCheck))
        if mayUpload {
            content.upload = UploadForm(
                action: links.page(.rules), fieldName: "datasheets",
                label: "Datasheet file to check (JSON-LD, JSON Lines or CSV)")
        }
        guard let checks else {
            content.sections.append(
                .init(
                    "No datasheet file",
                    note: links.isStatic
                        ? "This report was written without a datasheet file (itemaudit report --datasheets FILE adds its findings)."
                        : mayUpload
                            ? "Choose a datasheet file above: its findings are shown here, grouped by rule and by product."
                            : "Stewards, managers and admins check datasheet files on this page.")
            )
            return content
        }
        content.title = "Rule checks: \(checks.source)"
        content.csvParameters = links.isStatic ? [:] : ["file": checks.source]
        let summary = checks.summary
        content.facts = [
            .init("File", checks.source), .init("Datasheets", String(summary.datasheets)),
            .init("Failed", String(summary.failed)), .init("With warnings", String(summary.warnings)),
            .init("Passed", String(summary.passed)), .init("Unreadable records", String(checks.unreadable.count)),
        ]
        content.sections.append(byRule(checks))
        content.sections.append(byProduct(checks))
        content.sections.append(findings(checks))
        if !checks.unreadable.isEmpty {
            content.sections.append(
                .init(
                    "Unreadable records",
                    table: DataTable(
                        name: "unreadable", caption: "Records that could not be read",
                        columns: [.init("problem")], rows: checks.unreadable.map { [.init($0)] })))
        }
        return content
    }

    private func byRule(_ checks: RuleCheckInput) -> PageContent.Section {
        let totals = checks.byRule.totals
        let rules = totals.values.sorted { ($0.failures + $0.warnings, $1.rule) > ($1.failures + $1.warnings, $0.rule) }
        let titles = RuleTitles.shared
        let chart = Chart.stackedBars(
            id: "chart-rules", title: "Findings by rule", labels: rules.map(\.rule),
            series: [
                .init(name: "failures", style: Chart.style(2), values: rules.map(\.failures)),
                .init(name: "warnings", style: Chart.style(1), values: rules.map(\.warnings)),
            ])
        var table = DataTable(
            name: "rules", caption: "Findings by rule",
            columns: [
                .init("rule"), .init("title"), .init("reference"), .init("failures", numeric: true),
                .init("warnings", numeric: true), .init("datasheets", numeric: true),
                .init("message", "example message"),
            ],
            rows: rules.map { total in
                [
                    .init(total.rule), .init(titles.title(of: total.rule)), .init(total.reference),
                    .init(String(total.failures)), .init(String(total.warnings)), .init(String(total.datasheetCount)),
                    .init(total.example),
                ]
            })
        table.emptyText = "No rule failed or warned."
        return .init("By rule", chart: rules.isEmpty ? nil : chart, table: table)
    }

    private func byProduct(_ checks: RuleCheckInput) -> PageContent.Section {
        let reports = checks.reports.filter { !$0.findings.isEmpty }
        let shown = links.isStatic ? reports : Array(reports.prefix(Self.findingsShown))
        var table = DataTable(
            name: "products", caption: "Datasheets with findings, in file order",
            columns: [
                .init("gtin"), .init("source"), .init("verdict"), .init("failures", numeric: true),
                .init("warnings", numeric: true), .init("passedRules", numeric: true), .init("rules", "rules found"),
            ],
            rows: shown.map { report in
                let failures = report.findings.filter { $0.severity == "failure" }.count
                let warnings = report.findings.filter { $0.severity == "warning" }.count
                return [
                    .init(report.gtin, link: report.gtin.isEmpty ? nil : productLink(report.gtin)),
                    .init(report.source),
                    .init(ReportLabels.verdict(report.verdict.rawValue)), .init(String(failures)),
                    .init(String(warnings)),
                    .init(String(report.passedRules)),
                    .init(Array(Set(report.findings.map(\.rule))).sorted().joined(separator: ", ")),
                ]
            })
        table.emptyText = "Every datasheet passed."
        let note =
            shown.count < checks.datasheetsWithFindings
            ? "The first \(shown.count) of \(checks.datasheetsWithFindings) datasheets with findings." : nil
        return .init("By product", note: note, table: table)
    }

    private func findings(_ checks: RuleCheckInput) -> PageContent.Section {
        var rows: [[DataTable.Cell]] = []
        // A server page draws the rows it shows; the static report's CSV file has every row.
        let wanted = links.isStatic ? Int.max : Self.findingsShown
        for report in checks.reports where rows.count < wanted {
            for finding in report.findings where rows.count < wanted {
                rows.append([
                    .init(report.gtin), .init(report.source), .init(finding.rule), .init(finding.attribute),
                    .init(finding.severity), .init(finding.message), .init(finding.observed), .init(finding.expected),
                    .init(finding.reference),
                ])
            }
        }
        var table = DataTable(
            name: "findings", caption: "Every finding with its evidence",
            columns: [
                .init("gtin"), .init("source"), .init("rule"), .init("attribute"), .init("severity"), .init("message"),
                .init("observed"), .init("expected"), .init("reference"),
            ],
            rows: Array(rows.prefix(Self.findingsShown)))
        // The static report's CSV file has every finding; a server page's CSV link holds the rows
        // shown (the form's CSV button, and POST /v1/datasheets/check?format=csv, have them all).
        if links.isStatic { table.csvRows = rows }
        table.emptyText = "No findings."
        let rest = links.isStatic ? "the CSV has them all" : "the form's CSV button has them all"
        let note =
            checks.findingCount > Self.findingsShown
            ? "The first \(Self.findingsShown) of \(checks.findingCount) findings; \(rest)." : nil
        return .init("Findings and evidence", note: note, table: table)
    }
}

/// Rule ids → titles, from the built-in rule sets.
struct RuleTitles: Sendable {
    let titles: [String: String]
    static let shared = RuleTitles()

    init() {
        var titles: [String: String] = [:]
        if let engine = try? RuleBook.engine(subject: nil) {
            for set in engine.ruleSets { for rule in set.rules { titles[rule.id] = rule.title } }
        }
        self.titles = titles
    }

    func title(of rule: String) -> String { titles[rule] ?? "" }
}
