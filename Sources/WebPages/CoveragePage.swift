import AuditService

/// Coverage by product type, mode, location and inspector (or the one grouping `by` names, or
/// inspections per day, week or month), over the period.
struct CoveragePage {
    let scope: PageScope

    func content() throws -> PageContent {
        let period = try scope.request.period()
        let now = scope.pages.now()
        let chosen: CoverageGrouping? =
            scope.request["by"] == nil ? nil : try scope.request.choice("by", default: CoverageGrouping.type)
        var content = PageContent(page: .coverage, title: "Coverage")
        content.csvParameters = scope.carried.merging(chosen.map { ["by": $0.rawValue] } ?? [:]) { $1 }
        content.filters = PeriodFilters.form(
            scope, page: .coverage,
            extra: [
                PeriodFilters.select(
                    "by", "Group by", scope, CoverageGrouping.allCases.map { ($0.rawValue, $0.rawValue) },
                    any: "type, mode, location and inspector")
            ])
        content.facts = [.init("Period", Format.period(period))]
        let groupings = chosen.map { [$0] } ?? CoverageSections.groupings.map(\.0)
        let answers = try translate {
            try scope.queries.coverage(from: period.from, to: period.to, by: groupings, now: now)
        }
        for (grouping, rows) in zip(groupings, answers) {
            switch grouping {
            case .day, .week, .month:
                content.sections.append(
                    CoverageSections.progressSection(
                        scope, rows: rows, unit: grouping.rawValue, tableName: "coverage-\(grouping.rawValue)"))
            default:
                content.sections.append(
                    CoverageSections.section(
                        scope, rows: rows, by: grouping, tableName: "coverage-\(grouping.rawValue)"))
            }
        }
        content.footer = scope.footer(now: now)
        return content
    }
}
