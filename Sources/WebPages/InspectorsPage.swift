import AuditService

/// Per inspector and day: collected, skipped by reason, passed, failed, minutes per task (pauses
/// excluded), with a small chart per inspector. An inspector sees only their own rows.
struct InspectorsPage {
    let scope: PageScope

    func content() throws -> PageContent {
        let period = try scope.request.period()
        let now = scope.pages.now()
        let only = scope.viewer.isLimitedToOwnWork ? scope.viewer.userID : scope.request["inspector"]
        var content = PageContent(page: .inspectors, title: "Inspectors")
        content.csvParameters = scope.carried.merging(only.map { ["inspector": $0] } ?? [:]) { $1 }
        content.filters = PeriodFilters.form(
            scope, page: .inspectors,
            extra: [
                .init(
                    name: "inspector", label: "Inspector id", value: scope.request["inspector"] ?? "",
                    hint: "inspector-2")
            ]
        )
        let keep = { (row: InspectorSummary) in only == nil || row.inspectorID == only }
        let totals = try translate { try scope.queries.inspectors(from: period.from, to: period.to) }.filter(keep)
        let days = try translate { try scope.queries.inspectors(from: period.from, to: period.to, per: .day) }.filter(
            keep)
        content.facts = [
            .init("Period", Format.period(period)), .init("Inspectors", String(totals.count)),
            .init("Inspections", String(totals.reduce(0) { $0 + $1.inspected })),
        ]
        content.sections.append(totalsSection(totals))
        content.sections.append(daysSection(days))
        content.footer = scope.footer(now: now)
        return content
    }

    static let columns: [DataTable.Column] = [
        .init("collected", numeric: true), .init("skippedUnableToCollect", "skipped: unable", numeric: true),
        .init("skippedOutOfStock", "skipped: out of stock", numeric: true),
        .init("skippedNoLongerAvailable", "skipped: no longer available", numeric: true),
        .init("inspected", numeric: true), .init("passed", numeric: true), .init("failed", numeric: true),
        .init("minutesPerTask", "minutes per task", numeric: true),
    ]

    static func cells(_ row: InspectorSummary) -> [DataTable.Cell] {
        [
            .init(String(row.collected)), .init(String(row.skippedUnableToCollect)),
            .init(String(row.skippedOutOfStock)), .init(String(row.skippedNoLongerAvailable)),
            .init(String(row.inspected)), .init(String(row.passed)), .init(String(row.failed)),
            .init(row.secondsPerTask.map { Format.decimal($0 / 60) } ?? ""),
        ]
    }

    private func totalsSection(_ rows: [InspectorSummary]) -> PageContent.Section {
        let chart = Chart.stackedBars(
            id: "chart-inspectors", title: "Inspections per inspector", labels: rows.map(\.name),
            series: [
                .init(name: "passed", style: Chart.style(0), values: rows.map(\.passed)),
                .init(name: "failed", style: Chart.style(2), values: rows.map(\.failed)),
            ])
        let table = DataTable(
            name: "inspectors", caption: "Per inspector over the period",
            columns: [.init("name"), .init("inspectorID", "id"), .init("days", numeric: true)] + Self.columns,
            rows: rows.map { row in
                [.init(row.name, link: historyLink(row.inspectorID)), .init(row.inspectorID), .init(String(row.days))]
                    + Self.cells(row)
            })
        return .init("Per inspector", chart: chart, table: table)
    }

    private func daysSection(_ rows: [InspectorSummary]) -> PageContent.Section {
        var order: [String] = []
        var byInspector: [String: [InspectorSummary]] = [:]
        for row in rows {
            if byInspector[row.name] == nil { order.append(row.name) }
            byInspector[row.name, default: []].append(row)
        }
        let panels = order.map { name -> (name: String, periods: [String], series: [Chart.Series]) in
            let days = byInspector[name] ?? []
            return (
                name, days.map { $0.period ?? "" },
                [
                    .init(name: "passed", style: Chart.style(0), values: days.map(\.passed)),
                    .init(name: "failed", style: Chart.style(2), values: days.map(\.failed)),
                    .init(
                        name: "skipped", style: Chart.style(5),
                        values: days.map {
                            $0.skippedUnableToCollect + $0.skippedOutOfStock + $0.skippedNoLongerAvailable
                        }),
                ]
            )
        }
        let chart = Chart.smallMultiples(
            id: "chart-inspector-days", title: "Inspections and skips per day, one chart per inspector", panels: panels)
        let table = DataTable(
            name: "inspector-days", caption: "Per inspector and day",
            columns: [.init("name"), .init("period", "day")] + Self.columns + [.init("skipped", numeric: true)],
            rows: rows.map { row in
                [.init(row.name), .init(row.period ?? "")] + Self.cells(row)
                    + [.init(String(row.skippedUnableToCollect + row.skippedOutOfStock + row.skippedNoLongerAvailable))]
            })
        return .init("Per inspector and day", chart: chart, table: table)
    }

    private func historyLink(_ inspector: String) -> String? {
        scope.link(.history, ["inspector": inspector])
    }
}
