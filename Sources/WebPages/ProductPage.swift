import AuditService

/// A product's quality history: its catalogue facts, its current datasheet's values, a timeline of
/// inspections and rule checks, verdict counts, failing attributes and trend.
struct ProductPage {
    let scope: PageScope
    /// The most photos a product page shows (the latest).
    static let photoLimit = 48

    func content() async throws -> PageContent {
        guard let gtin = scope.request["gtin"] else {
            throw ReportError(
                code: "invalid-parameter", message: "the product page needs gtin= (a GTIN; find one with search)",
                status: 400)
        }
        guard gtin.allSatisfy(\.isNumber), (8...14).contains(gtin.count) else {
            throw ReportError.badParameter("gtin", gtin, expected: "a GTIN of 8 to 14 digits")
        }
        guard var quality = try translate({ try scope.queries.product(gtin: gtin) }) else {
            throw ReportError.notFound("the log never mentions product \(gtin) (check the GTIN, or search for it)")
        }
        if scope.viewer.isLimitedToOwnWork {
            quality = ColleagueRedaction.quality(quality, seenBy: scope.viewer.userID)
        }
        let now = scope.pages.now()
        var content = PageContent(
            page: .product, title: quality.product.map { "\($0.name) (\(quality.gtin))" } ?? "Product \(quality.gtin)")
        content.csvParameters = ["gtin": quality.gtin].merging(scope.carried) { $1 }
        if let product = quality.product {
            content.facts += [
                .init("GTIN", product.gtin), .init("Brand", product.brand), .init("Manufacturer", product.manufacturer),
                .init("Type", product.productTypeLabel), .init("Category", product.category),
                .init("Datasheet attributes", String(product.attributes)),
            ]
        } else {
            content.facts.append(.init("GTIN", quality.gtin))
        }
        content.facts += [
            .init("Inspections passed", String(quality.passedInspections)),
            .init("Inspections failed", String(quality.failedInspections)),
            .init("Last inspected", Format.time(quality.lastInspectedAt)), .init("Trend", quality.trend),
            .init("Timeline", "full history", link: scope.link(.history, ["gtin": quality.gtin])),
        ]
        content.sections.append(timeline(quality))
        var photos = try translate { try scope.queries.photos(gtin: quality.gtin, limit: Self.photoLimit) }
        if scope.viewer.isLimitedToOwnWork {
            photos = ColleagueRedaction.photos(photos, seenBy: scope.viewer.userID)
        }
        content.sections.append(
            PhotoSection.section(scope, photos: photos, limit: Self.photoLimit, tableName: "photos"))
        // The values are today's: a page as of an earlier position leaves them out.
        if scope.asOf == nil, let lookup = scope.pages.datasheets {
            content.sections.append(datasheet(await lookup(quality.gtin)))
        }
        content.sections.append(try packaging(quality.gtin))
        content.sections.append(inspections(quality))
        content.sections.append(ruleChecks(quality))
        content.sections.append(failingAttributes(quality))
        content.footer = scope.footer(now: now)
        return content
    }

    private func timeline(_ quality: ProductQuality) -> PageContent.Section {
        let lanes = ["inspection passed", "inspection failed", "rule check"]
        var events: [(time: Timestamp, lane: Int, label: String)] = quality.inspections.map { record in
            (
                record.occurredAt, record.result == 2 ? 0 : 1,
                "\(Format.time(record.occurredAt)) \(record.resultLabel) by \(record.inspectorID) (\(record.failure) failures, \(record.warning) warnings)"
            )
        }
        events += quality.ruleChecks.map { check in
            (
                check.occurredAt, 2,
                "\(Format.time(check.occurredAt)) rule check: \(check.failure) failures, \(check.warning) warnings"
            )
        }
        let chart = Chart.timeline(id: "chart-timeline-counts", title: "Quality history", lanes: lanes, events: events)
        let counts = lanes.indices.map { lane in events.filter { $0.lane == lane }.count }
        let table = DataTable(
            name: "timeline-counts", caption: "Events on the timeline",
            columns: [.init("kind"), .init("events", numeric: true)],
            rows: zip(lanes, counts).map { [.init($0), .init(String($1))] })
        return .init("Quality history", chart: chart, table: table)
    }

    /// The current datasheet's values in the groups and order an inspector's task shows them:
    /// groups in catalogue order, each attribute's name, the supplier's value, its unit and the
    /// value in words.
    private func datasheet(_ sheet: ProductDatasheet?) -> PageContent.Section {
        let groupNames = Dictionary(
            (sheet?.groups ?? []).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var table = DataTable(
            name: "datasheet", caption: "The current datasheet's values, grouped as an inspector's task shows them",
            columns: [
                .init("group"), .init("name", "attribute"), .init("value", "supplier value"),
                .init("unit"), .init("valueLabel", "in words"), .init("path"),
            ],
            rows: (sheet?.attributes ?? []).map { attribute in
                [
                    .init(groupNames[attribute.group] ?? attribute.group), .init(attribute.name),
                    .init(attribute.value), .init(attribute.unit ?? ""), .init(attribute.valueLabel ?? ""),
                    .init(attribute.path),
                ]
            })
        table.emptyText = "No datasheet imported for this product."
        let heading = sheet?.datasheetID.map { "Current datasheet (\($0))" } ?? "Current datasheet"
        return .init(heading, table: table)
    }

    private func packaging(_ gtin: String) throws -> PageContent.Section {
        let hierarchy = try translate { try scope.queries.packagingHierarchy(gtin: gtin) }
        let levels = hierarchy.map { $0.containedIn.reversed() + [$0.product] + $0.contains } ?? []
        var table = DataTable(
            name: "packaging", caption: "Packaging hierarchy, largest level first",
            columns: [
                .init("gtin"), .init("name"), .init("productTypeLabel", "type"),
                .init("childQuantity", "holds of the level below", numeric: true),
                .init("children", "contains"),
            ],
            rows: levels.map { level in
                [
                    .init(level.gtin, link: level.gtin == gtin ? nil : scope.link(.product, ["gtin": level.gtin])),
                    .init(level.name), .init(ReportLabels.productType(level.productType)),
                    // A mixed case or shipper holds several products: the count is their total.
                    .init(Format.count(level.children.isEmpty ? nil : level.children.reduce(0) { $0 + $1.quantity })),
                    .init(level.children.map { "\($0.quantity) × \($0.gtin)" }.joined(separator: ", ")),
                ]
            })
        table.emptyText = "The product is not registered, so its packaging is not known."
        return .init("Packaging hierarchy", table: table)
    }

    private func inspections(_ quality: ProductQuality) -> PageContent.Section {
        var table = DataTable(
            name: "inspections", caption: "Finished inspections, oldest first",
            columns: [
                .init("position", numeric: true), .init("occurredAt"), .init("taskID"), .init("batchID"),
                .init("inspectorID"), .init("modeLabel", "mode"), .init("resultLabel", "result"),
                .init("passed", numeric: true), .init("warning", numeric: true), .init("failure", numeric: true),
                .init("unable", numeric: true), .init("failing"),
            ],
            rows: quality.inspections.map { record in
                [
                    .init(
                        String(record.position),
                        link: scope.link(.history, ["gtin": quality.gtin, "as-of": String(record.position)])),
                    .init(Format.time(record.occurredAt)), .init(record.taskID),
                    .init(
                        record.batchID,
                        link: record.batchID.isEmpty ? nil : scope.link(.batch, ["batch": record.batchID])),
                    .init(record.inspectorID), .init(record.modeLabel), .init(record.resultLabel),
                    .init(String(record.passed)), .init(String(record.warning)), .init(String(record.failure)),
                    .init(String(record.unable)), .init(record.failing.map(\.text).joined(separator: "; ")),
                ]
            })
        table.emptyText = "Never inspected."
        return .init("Inspections", table: table)
    }

    private func ruleChecks(_ quality: ProductQuality) -> PageContent.Section {
        var table = DataTable(
            name: "rule-checks", caption: "Rule checks, oldest first",
            columns: [
                .init("position", numeric: true), .init("occurredAt"), .init("datasheetID"), .init("ruleSets"),
                .init("passed", numeric: true), .init("warning", numeric: true), .init("failure", numeric: true),
                .init("unable", numeric: true), .init("failing"),
            ],
            rows: quality.ruleChecks.map { check in
                [
                    .init(String(check.position)), .init(Format.time(check.occurredAt)), .init(check.datasheetID),
                    .init(check.ruleSets), .init(String(check.passed)), .init(String(check.warning)),
                    .init(String(check.failure)), .init(String(check.unable)),
                    .init(check.failing.map(\.text).joined(separator: "; ")),
                ]
            })
        table.emptyText = "No rule check recorded."
        return .init("Rule checks", table: table)
    }

    private func failingAttributes(_ quality: ProductQuality) -> PageContent.Section {
        var counts: [String: (failures: Int, warnings: Int)] = [:]
        var order: [String] = []
        for finding in quality.inspections.flatMap(\.failing) {
            if counts[finding.attribute] == nil { order.append(finding.attribute) }
            if finding.verdict == 3 { counts[finding.attribute, default: (0, 0)].failures += 1 }
            if finding.verdict == 2 { counts[finding.attribute, default: (0, 0)].warnings += 1 }
        }
        let sorted = order.sorted { (counts[$0]?.failures ?? 0, $1) > (counts[$1]?.failures ?? 0, $0) }
        let chart = Chart.stackedBars(
            id: "chart-failing-attributes", title: "Failing attributes over all inspections", labels: sorted,
            series: [
                .init(name: "failures", style: Chart.style(2), values: sorted.map { counts[$0]?.failures ?? 0 }),
                .init(name: "warnings", style: Chart.style(1), values: sorted.map { counts[$0]?.warnings ?? 0 }),
            ])
        var table = DataTable(
            name: "failing-attributes", caption: "Failing attributes over all inspections",
            columns: [.init("attribute"), .init("failures", numeric: true), .init("warnings", numeric: true)],
            rows: sorted.map {
                [.init($0), .init(String(counts[$0]?.failures ?? 0)), .init(String(counts[$0]?.warnings ?? 0))]
            })
        table.emptyText = "No attribute failed or warned."
        return .init("Failing attributes", chart: sorted.isEmpty ? nil : chart, table: table)
    }
}
