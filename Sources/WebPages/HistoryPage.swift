import AuditService

/// The auditor's timeline of a GTIN, batch, task or inspector, as of a point (`as-of`), read
/// straight from the log; each row links to the timeline as of its position, and the page shows
/// the head hash it was drawn at.
struct HistoryPage {
    let scope: PageScope
    static let pageSize = 500

    func content() async throws -> PageContent {
        let subjects: [(String, (String) -> HistorySubject)] = [
            ("gtin", { .gtin($0) }), ("batch", { .batch($0) }), ("task", { .task($0) }),
            ("inspector", { .inspector($0) }),
        ]
        let given = subjects.filter { scope.request[$0.0] != nil }
        var content = PageContent(page: .history, title: "History")
        content.filters = FilterForm(
            action: scope.links.page(.history),
            fields: subjects.map {
                .init(
                    name: $0.0, label: $0.0 == "gtin" ? "GTIN" : $0.0.capitalized + " id",
                    value: scope.request[$0.0] ?? "")
            }
                + PeriodFilters.fields(scope))
        let now = scope.pages.now()
        let head = scope.head
        content.facts = [
            .init("Drawn at log position", String(head.position)), .init("Head hash", head.headHash),
        ]
        content.footer = scope.footer(now: now)
        guard let (key, make) = given.first else {
            content.sections.append(.init("Choose a subject", note: "Give a GTIN, batch, task or inspector id above."))
            return content
        }
        guard given.count == 1 else {
            throw ReportError(
                code: "invalid-parameter",
                message: "give one of gtin, batch, task or inspector, not " + given.map(\.0).joined(separator: " and "),
                status: 400)
        }
        let value = scope.request[key] ?? ""
        let period = try scope.request.period()
        let subject = make(value)
        let entries = try await translateAsync {
            try await scope.queries.history(subject, upTo: scope.asOf, from: period.from, to: period.to)
        }
        content.title = "History of \(key) \(value)"
        if let asOf = scope.asOf { content.facts.insert(.init("As of position", String(asOf)), at: 0) }
        content.facts.append(.init("Events", String(entries.count)))
        let offset = try scope.request.integer("offset", 0...Int(Int32.max)) ?? 0
        var parameters = scope.request.parameters.filter { ["from", "to", "as-of", key].contains($0.key) }
        parameters[key] = value
        content.csvParameters = parameters.merging(offset > 0 ? ["offset": String(offset)] : [:]) { $1 }
        content.sections.append(Self.timelineSection(entries, title: "Timeline", tableName: "timeline-kinds"))
        let page = entries.dropFirst(offset).prefix(Self.pageSize)
        var table = DataTable(
            name: "events", caption: "Events in log order",
            columns: [
                .init("position", numeric: true), .init("recordedAt"), .init("occurredAt"), .init("actor"),
                .init("eventType"), .init("summary"),
            ],
            rows: page.map { entry in
                var asOf = parameters
                asOf["as-of"] = String(entry.position)
                asOf["offset"] = nil
                return [
                    .init(String(entry.position), link: scope.link(.history, asOf)),
                    .init(Format.time(entry.recordedAt)),
                    .init(Format.time(entry.occurredAt)), .init(entry.actor), .init(entry.eventType),
                    .init(entry.summary),
                ]
            })
        table.emptyText = "No event about \(key) \(value) in this period."
        var section = PageContent.Section(
            "Events",
            note: entries.isEmpty
                ? nil
                : "Rows \(min(offset + 1, entries.count))–\(offset + page.count) of \(entries.count). Each position links to the timeline as of that event.",
            table: table)
        section.pager = Pager.links(
            scope, page: .history, parameters: parameters, offset: offset, total: entries.count, size: Self.pageSize)
        content.sections.append(section)
        return content
    }

    /// A timeline chart of `entries` (one lane per kind of event) with a table of the counts.
    static func timelineSection(_ entries: [TimelineEntry], title: String, tableName: String) -> PageContent.Section {
        var lanes: [String] = []
        var laneOf: [String: Int] = [:]
        var laneOfEntry: [Int] = []
        laneOfEntry.reserveCapacity(entries.count)
        for entry in entries {
            if let known = laneOf[entry.eventType] {
                laneOfEntry.append(known)
            } else {
                laneOf[entry.eventType] = lanes.count
                laneOfEntry.append(lanes.count)
                lanes.append(entry.eventType)
            }
        }
        // At most 400 marks: enough to see the shape, small enough for the page. The lane counts
        // stay exact; only the marks are thinned (and only theirs get a label).
        let step = entries.count <= 400 ? 1 : max(1, entries.count / 400)
        let shown = stride(from: 0, to: entries.count, by: step).map { index in
            let entry = entries[index]
            return (
                time: entry.occurredAt, lane: laneOfEntry[index],
                label: "\(entry.position) \(Format.time(entry.occurredAt)) \(entry.eventType): \(entry.summary)"
            )
        }
        var counts = [Int](repeating: 0, count: lanes.count)
        for lane in laneOfEntry { counts[lane] += 1 }
        let chart = Chart.timeline(id: "chart-\(tableName)", title: title, lanes: lanes, events: shown, counts: counts)
        var table = DataTable(
            name: tableName, caption: "Events by type",
            columns: [.init("eventType"), .init("events", numeric: true)],
            rows: zip(lanes, counts).map { [.init($0), .init(String($1))] })
        table.emptyText = "No events."
        return .init(title, chart: entries.isEmpty ? nil : chart, table: table)
    }
}
