import AuditService

/// The coverage chart and table, shared by the coverage page and the dashboard.
enum CoverageSections {
    static let groupings: [(CoverageGrouping, String)] = [
        (.type, "product type"), (.mode, "mode"), (.location, "location"), (.inspector, "inspector"),
    ]

    /// Stacked bars of each group's catalogue — inspected in the period, inspected only before it,
    /// never inspected — and overdue beside them; the table has every column of `itemaudit coverage`.
    static func section(_ scope: PageScope, rows: [CoverageRow], by grouping: CoverageGrouping, tableName: String)
        -> PageContent.Section
    {
        let name = groupings.first { $0.0 == grouping }?.1 ?? grouping.rawValue
        let hasNever = rows.contains { $0.neverInspected != nil }
        let notInPeriod = rows.map { row in
            max(row.catalogue - row.inspected - (row.neverInspected ?? 0), 0)
        }
        var series: [Chart.Series] = [.init(name: "inspected", style: Chart.style(0), values: rows.map(\.inspected))]
        if hasNever {
            series.append(.init(name: "inspected before only", style: Chart.style(3), values: notInPeriod))
            series.append(
                .init(name: "neverInspected", style: Chart.style(5), values: rows.map { $0.neverInspected ?? 0 }))
            series.append(.init(name: "overdue", style: Chart.style(2), values: rows.map { $0.overdue ?? 0 }))
        } else {
            series.append(.init(name: "not inspected", style: Chart.style(5), values: notInPeriod))
        }
        let chart = Chart.stackedBars(
            id: "chart-\(tableName)", title: "Coverage by \(name)", labels: rows.map(\.groupLabel), series: series)
        var columns: [DataTable.Column] = [
            .init("groupLabel", name), .init("catalogue", numeric: true), .init("inspected", numeric: true),
            .init("percent", numeric: true), .init("inspections", numeric: true),
            .init("neverInspected", numeric: true), .init("overdue", numeric: true),
        ]
        columns.append(
            .init(
                hasNever ? "inspectedBeforeOnly" : "notInspected", hasNever ? "inspected before only" : "not inspected",
                numeric: true))
        let table = DataTable(
            name: tableName, caption: "Coverage by \(name)", columns: columns,
            rows: zip(rows, notInPeriod).map { row, rest in
                [
                    .init(row.groupLabel, link: link(scope, grouping: grouping, row: row)),
                    .init(String(row.catalogue)), .init(String(row.inspected)), .init(Format.decimal(row.percent)),
                    .init(String(row.inspections)), .init(Format.count(row.neverInspected)),
                    .init(Format.count(row.overdue)), .init(String(rest)),
                ]
            })
        return .init("Coverage by \(name)", chart: chart, table: table)
    }

    /// Inspections per day, week or month, with the change.
    static func progressSection(_ scope: PageScope, rows: [CoverageRow], unit: String, tableName: String)
        -> PageContent.Section
    {
        let chart = Chart.stackedBars(
            id: "chart-\(tableName)", title: "Inspections per \(unit)", labels: rows.map(\.groupLabel),
            series: [.init(name: "inspections", style: Chart.style(0), values: rows.map(\.inspections))])
        let table = DataTable(
            name: tableName, caption: "Inspections per \(unit)",
            columns: [
                .init("groupLabel", unit), .init("inspections", numeric: true), .init("inspected", numeric: true),
                .init("change", numeric: true),
            ],
            rows: rows.map { row in
                [
                    .init(row.groupLabel), .init(String(row.inspections)), .init(String(row.inspected)),
                    .init(Format.change(row.change)),
                ]
            })
        return .init("Inspections per \(unit)", chart: chart, table: table)
    }

    /// An inspector's group links to their analytics.
    private static func link(_ scope: PageScope, grouping: CoverageGrouping, row: CoverageRow) -> String? {
        guard grouping == .inspector else { return nil }
        var parameters = scope.carried
        parameters["inspector"] = row.group
        return scope.link(.inspectors, parameters)
    }
}
