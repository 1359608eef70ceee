import AuditService

/// The dashboard: coverage, inspections this period, open batches by status, overdue samples,
/// failures by attribute group, and the log's head hash and last verification.
struct DashboardPage {
    let scope: PageScope

    func content() throws -> PageContent {
        let period = try scope.request.period()
        let queries = scope.queries
        let now = scope.pages.now()
        var content = PageContent(page: .dashboard, title: "Dashboard")
        content.csvParameters = scope.carried
        content.filters = PeriodFilters.form(scope, page: .dashboard)
        let head = scope.head
        let managerView = PageAccess.allows(.coverage, scope.viewer)
        if managerView {
            let byType = try translate { try queries.coverage(from: period.from, to: period.to, by: .type, now: now) }
            let catalogue = byType.reduce(0) { $0 + $1.catalogue }
            let inspected = byType.reduce(0) { $0 + $1.inspected }
            let inspections = byType.reduce(0) { $0 + $1.inspections }
            let overdue = try translate { try queries.overdueSamples(now: now) }
            content.facts += [
                .init(
                    "Catalogue coverage",
                    catalogue == 0 ? "0.0 %" : Format.decimal(Double(inspected) * 100 / Double(catalogue)) + " %",
                    link: scope.link(.coverage, scope.carried)),
                .init("Products inspected", "\(inspected) of \(catalogue)"),
                .init("Inspections (\(Format.period(period)))", String(inspections)),
                .init("Overdue samples", String(overdue.count)),
            ]
            content.sections.append(
                CoverageSections.section(scope, rows: byType, by: .type, tableName: "coverage-type"))
            content.sections.append(try weeklySection(period: period, now: now))
            content.sections.append(try attributeGroupSection(period: period))
            content.sections.append(overdueSection(overdue))
        }
        if PageAccess.allows(.batch, scope.viewer) {
            content.sections.insert(try batchStatusSection(), at: min(1, content.sections.count))
        }
        content.facts += [
            .init("Log position", String(head.position)),
            .init("Last event recorded", head.recordedAt?.iso8601 ?? "none"),
            .init("Head hash", head.headHash),
            .init("Last verification", verificationText()),
        ]
        content.footer = scope.footer(now: now)
        return content
    }

    /// When the log was last verified, what was found and the head hash then: the verification
    /// this report made, else the one noted in the data directory (``LastVerification``).
    private func verificationText() -> String {
        let last =
            scope.pages.verification.map { LastVerification(verifiedAt: $0.at, report: $0.report) }
            ?? scope.pages.queries.lastVerification()
        guard let last else {
            return "never verified here (itemaudit serve verifies the log at start; itemaudit verify prints it)"
        }
        let report = last.report
        return "\(last.verifiedAt.iso8601): \(last.result), \(report.eventCount) events to position "
            + "\(report.lastPosition), head \(report.headHash)"
    }

    /// Open batches (statuses 0–5) by status; an inspector sees their own.
    private func batchStatusSection() throws -> PageContent.Section {
        var counts: [Int: Int]
        if scope.viewer.isLimitedToOwnWork {
            counts = [:]
            for batch in try translate({ try scope.queries.batches(BatchFilter(inspectorID: scope.viewer.userID)) }) {
                counts[batch.status, default: 0] += 1
            }
        } else {
            counts = try translate { try scope.queries.batchStatusCounts() }
        }
        let statuses = Array(0...5)
        let labels = statuses.map(ReportLabels.batchStatus)
        let values = statuses.map { counts[$0] ?? 0 }
        let chart = Chart.stackedBars(
            id: "chart-open-batches", title: "Open batches by status", labels: labels,
            series: [.init(name: "batches", style: Chart.style(3), values: values)])
        var table = DataTable(
            name: "open-batches", caption: "Open batches by status",
            columns: [
                .init("statusLabel", "status"), .init("status", "code", numeric: true), .init("batches", numeric: true),
            ],
            rows: zip(statuses, zip(labels, values)).map { status, item in
                [
                    .init(item.0, link: scope.link(.batch, ["status": String(status)])), .init(String(status)),
                    .init(String(item.1)),
                ]
            })
        table.emptyText = "No batches."
        return .init("Open batches by status", chart: chart, table: table)
    }

    /// Inspections per week of the period.
    private func weeklySection(period: ReportPeriod, now: Timestamp) throws -> PageContent.Section {
        let rows = try translate { try scope.queries.coverage(from: period.from, to: period.to, by: .week, now: now) }
        return CoverageSections.progressSection(scope, rows: rows, unit: "week", tableName: "inspections-week")
    }

    /// Failed and warned attributes of finished inspections, by the attribute catalogue's groups.
    private func attributeGroupSection(period: ReportPeriod) throws -> PageContent.Section {
        let counts = try translate { try scope.queries.attributeFailures(from: period.from, to: period.to) }
        let groups = AttributeGroups.shared.group(counts)
        let chart = Chart.stackedBars(
            id: "chart-attribute-groups", title: "Failures and warnings by attribute group",
            labels: groups.map(\.name),
            series: [
                .init(name: "failures", style: Chart.style(2), values: groups.map(\.failures)),
                .init(name: "warnings", style: Chart.style(1), values: groups.map(\.warnings)),
            ])
        let table = DataTable(
            name: "attribute-groups", caption: "Failures and warnings by attribute group",
            columns: [
                .init("group"), .init("failures", numeric: true), .init("warnings", numeric: true),
                .init("attributes", "most failed attributes"), .init("covers", "what the group covers"),
            ],
            rows: groups.map { group in
                [
                    .init(group.name), .init(String(group.failures)), .init(String(group.warnings)),
                    .init(group.top.joined(separator: ", ")), .init(AttributeGroups.shared.title(of: group.name)),
                ]
            })
        return .init(
            "Failures by attribute group",
            note:
                "Attributes of finished inspections judged failure or warning, grouped as the attribute catalogue groups them.",
            chart: chart, table: table)
    }

    /// The most overdue samples.
    private func overdueSection(_ overdue: [OverdueSample]) -> PageContent.Section {
        let shown = overdue.prefix(50)
        var table = DataTable(
            name: "overdue", caption: "Overdue samples (most overdue first)",
            columns: [
                .init("gtin"), .init("name"), .init("productTypeLabel", "type"), .init("receivedAt"),
                .init("inspectBefore"), .init("daysOverdue", numeric: true),
            ],
            rows: shown.map { sample in
                [
                    .init(sample.gtin, link: scope.link(.product, ["gtin": sample.gtin])), .init(sample.name),
                    .init(sample.productTypeLabel), .init(Format.time(sample.receivedAt)),
                    .init(Format.time(sample.inspectBefore)), .init(String(sample.daysOverdue)),
                ]
            })
        table.emptyText = "No sample is overdue."
        let note = overdue.count > shown.count ? "The \(shown.count) most overdue of \(overdue.count)." : nil
        return .init("Overdue samples", note: note, table: table)
    }
}
