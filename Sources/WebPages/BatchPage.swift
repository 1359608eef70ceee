import AuditService

/// One batch (`batch=`): its tasks with their statuses, missing photos and timeline; without it,
/// the batch list with the CLI's filters (`status`, `mode`, `inspector`, `location`). An
/// inspector sees only their own batches.
struct BatchPage {
    let scope: PageScope
    static let pageSize = 200

    func content() async throws -> PageContent {
        if let id = scope.request["batch"] { return try await batch(id) }
        return try list()
    }

    private func list() throws -> PageContent {
        let status = try scope.request.integer("status", 0...7)
        let mode = try scope.request.integer("mode", 0...4)
        let inspector = scope.viewer.isLimitedToOwnWork ? scope.viewer.userID : scope.request["inspector"]
        let filter = BatchFilter(
            status: status, mode: mode, inspectorID: inspector, locationID: scope.request["location"])
        let all = try translate { try scope.queries.batches(filter) }
        let offset = try scope.request.integer("offset", 0...Int(Int32.max)) ?? 0
        var content = PageContent(page: .batch, title: "Batches")
        var parameters = scope.request.parameters.filter {
            ["status", "mode", "inspector", "location", "as-of"].contains($0.key)
        }
        if scope.viewer.isLimitedToOwnWork { parameters["inspector"] = scope.viewer.userID }
        content.csvParameters = parameters.merging(offset > 0 ? ["offset": String(offset)] : [:]) { $1 }
        content.filters = FilterForm(
            action: scope.links.page(.batch),
            fields: [
                PeriodFilters.select(
                    "status", "Status", scope, (0...7).map { (String($0), ReportLabels.batchStatus($0)) }),
                PeriodFilters.select("mode", "Mode", scope, (0...4).map { (String($0), ReportLabels.mode($0)) }),
                .init(name: "inspector", label: "Inspector id", value: scope.request["inspector"] ?? ""),
                .init(name: "location", label: "Location id", value: scope.request["location"] ?? ""),
                .init(name: "as-of", label: "As of (time or position)", value: scope.request["as-of"] ?? ""),
            ])
        var counts = [Int](repeating: 0, count: 8)
        for batch in all where (0...7).contains(batch.status) { counts[batch.status] += 1 }
        content.facts = [.init("Batches", String(all.count))]
        let labels = (0...7).map(ReportLabels.batchStatus)
        let chart = Chart.stackedBars(
            id: "chart-batch-status", title: "Batches by status", labels: labels,
            series: [.init(name: "batches", style: Chart.style(3), values: counts)])
        let statusTable = DataTable(
            name: "batch-status", caption: "Batches by status",
            columns: [.init("statusLabel", "status"), .init("batches", numeric: true)],
            rows: zip(labels, counts).map { [.init($0), .init(String($1))] })
        content.sections.append(.init("Batches by status", chart: chart, table: statusTable))
        let page = all.dropFirst(offset).prefix(Self.pageSize)
        var table = DataTable(
            name: "batches", caption: "Batches in allocation order",
            columns: [
                .init("batchID"), .init("statusLabel", "status"), .init("modeLabel", "mode"), .init("inspectorID"),
                .init("locationID"), .init("allocatedAt"), .init("expiresAt"), .init("taskCount", numeric: true),
                .init("collected", numeric: true), .init("skipped", numeric: true), .init("passed", numeric: true),
                .init("failed", numeric: true),
            ],
            rows: page.map { batch in
                [
                    .init(batch.batchID, link: scope.link(.batch, ["batch": batch.batchID])),
                    .init(batch.statusLabel + (batch.expired ? " (expired)" : "")), .init(batch.modeLabel),
                    .init(batch.inspectorID), .init(batch.locationID), .init(Format.time(batch.allocatedAt)),
                    .init(Format.time(batch.expiresAt)), .init(String(batch.taskCount)), .init(String(batch.collected)),
                    .init(String(batch.skipped)), .init(String(batch.passed)), .init(String(batch.failed)),
                ]
            })
        table.emptyText = "No batch matches these filters."
        var section = PageContent.Section(
            "Batch list", note: "Rows \(min(offset + 1, all.count))–\(offset + page.count) of \(all.count).",
            table: table)
        section.pager = Pager.links(
            scope, page: .batch, parameters: parameters, offset: offset, total: all.count, size: Self.pageSize)
        content.sections.append(section)
        content.footer = scope.footer(now: scope.pages.now())
        return content
    }

    private func batch(_ id: String) async throws -> PageContent {
        guard let batch = try translate({ try scope.queries.batch(id) }) else {
            throw ReportError.notFound("no batch \(id) in the log (see the batch list)")
        }
        if scope.viewer.isLimitedToOwnWork, batch.inspectorID != scope.viewer.userID {
            throw ReportError.forbidden("batch \(id) belongs to another inspector (you see only your own batches)")
        }
        var content = PageContent(page: .batch, title: "Batch \(batch.batchID)")
        content.csvParameters = ["batch": batch.batchID].merging(scope.carried.filter { $0.key == "as-of" }) { $1 }
        let missing = batch.tasks.filter { ($0.inspectionStatus == 2 || $0.inspectionStatus == 3) && $0.photos == 0 }
        content.facts = [
            .init(
                "Status", batch.statusLabel + (batch.expired ? " (expired)" : "") + (batch.paused ? " (paused)" : "")),
            .init("Mode", batch.modeLabel), .init("Inspector", batch.inspectorID), .init("Location", batch.locationID),
            .init("Allocated", Format.time(batch.allocatedAt)), .init("Expires", Format.time(batch.expiresAt)),
            .init("Tasks", String(batch.taskCount)), .init("Photos", String(batch.photos)),
            .init("Inspected tasks without a photo", String(missing.count)),
            .init("Timeline", "full history", link: scope.link(.history, ["batch": batch.batchID])),
        ]
        let collection = [0, 1, 2, 3].map { code in batch.tasks.filter { $0.collectionStatus == code }.count }
        let inspection = [1, 2, 3, 4].map { code in batch.tasks.filter { $0.inspectionStatus == code }.count }
        let labels = ["collection", "inspection"]
        let chart = Chart.stackedBars(
            id: "chart-task-status", title: "Tasks by status", labels: labels,
            series: [
                .init(name: "pending", style: Chart.style(5), values: [collection[0] + collection[1], inspection[0]]),
                .init(name: "done", style: Chart.style(0), values: [collection[2], inspection[1]]),
                .init(name: "failed", style: Chart.style(2), values: [0, inspection[2]]),
                .init(name: "skipped", style: Chart.style(1), values: [collection[3], inspection[3]]),
            ])
        let statusTable = DataTable(
            name: "task-status",
            caption:
                "Tasks by status (collection: pending, collected, -, skipped; inspection: ready, passed, failed, skipped)",
            columns: [
                .init("stage"), .init("pending", numeric: true), .init("done", numeric: true),
                .init("failed", numeric: true), .init("skipped", numeric: true),
            ],
            rows: [
                [
                    .init("collection"), .init(String(collection[0] + collection[1])), .init(String(collection[2])),
                    .init("0"), .init(String(collection[3])),
                ],
                [
                    .init("inspection"), .init(String(inspection[0])), .init(String(inspection[1])),
                    .init(String(inspection[2])), .init(String(inspection[3])),
                ],
            ])
        content.sections.append(.init("Tasks by status", chart: chart, table: statusTable))
        var tasks = DataTable(
            name: "tasks", caption: "Tasks in allocation order",
            columns: [
                .init("taskID"), .init("gtin"), .init("collectionStatusLabel", "collection"),
                .init("skipReasonLabel", "skip reason"),
                .init("inspectionStatusLabel", "inspection"), .init("verdicts", numeric: true),
                .init("passed", numeric: true),
                .init("warning", numeric: true), .init("failure", numeric: true), .init("unable", numeric: true),
                .init("photos", numeric: true),
            ],
            rows: batch.tasks.map { task in
                [
                    .init(task.taskID, link: scope.link(.history, ["task": task.taskID])),
                    .init(task.gtin, link: scope.link(.product, ["gtin": task.gtin])),
                    .init(task.collectionStatusLabel), .init(task.skipReasonLabel ?? ""),
                    .init(task.inspectionStatusLabel ?? ""), .init(String(task.verdicts)), .init(String(task.passed)),
                    .init(String(task.warning)), .init(String(task.failure)), .init(String(task.unable)),
                    .init(
                        task.photos == 0 && (task.inspectionStatus == 2 || task.inspectionStatus == 3)
                            ? "0 (missing)" : String(task.photos)),
                ]
            })
        tasks.emptyText = "The batch has no tasks."
        content.sections.append(.init("Tasks", table: tasks))
        let entries = try await translateAsync {
            try await scope.queries.history(.batch(batch.batchID), upTo: scope.asOf)
        }
        content.sections.append(
            HistoryPage.timelineSection(entries, title: "Batch timeline", tableName: "timeline-kinds"))
        content.footer = scope.footer(now: scope.pages.now())
        return content
    }
}

/// Links to the pages before and after in a long table.
enum Pager {
    static func links(
        _ scope: PageScope, page: PageName, parameters: [String: String], offset: Int, total: Int, size: Int
    ) -> [PageContent.Fact] {
        guard total > size else { return [] }
        var out: [PageContent.Fact] = []
        if offset > 0 {
            var previous = parameters
            previous["offset"] = offset - size > 0 ? String(offset - size) : nil
            out.append(.init("Previous \(size)", "", link: scope.link(page, previous)))
        }
        if offset + size < total {
            var next = parameters
            next["offset"] = String(offset + size)
            out.append(.init("Next \(min(size, total - offset - size))", "", link: scope.link(page, next)))
        }
        return out
    }
}
