import AuditService

/// The receiver's receptions, newest first, and with `reception=` one reception's acknowledgement
/// for the manufacturer (seed 4.2.5: "the system will send an acknowledgement to the
/// manufacturer"), a page to print or to mail. A receiver sees the receptions they entered.
struct ReceptionsPage {
    let scope: PageScope
    /// The most receptions the list shows.
    static let listLimit = 200

    func content() throws -> PageContent {
        let own = PermissionTable.isLimitedToOwnReceptions(scope.viewer.roles) ? scope.viewer.userID : nil
        if let id = scope.request["reception"] {
            return try acknowledgement(id, own: own)
        }
        let page = try translate { try scope.queries.receptions(receivedBy: own, limit: Self.listLimit, offset: 0) }
        var content = PageContent(page: .receptions, title: "Receptions")
        content.facts = [.init("Receptions", String(page.total))]
        var table = DataTable(
            name: "receptions", caption: "Samples received, newest first",
            columns: [
                .init("receptionID", "reception"), .init("receivedAt", "received"), .init("gtin"),
                .init("productName", "product"), .init("conditionLabel", "condition"),
                .init("priorityLabel", "priority"), .init("inspectBefore", "inspect before"),
                .init("storageLocation", "shelf"), .init("decommissionLabel", "decommission"),
            ],
            rows: page.items.map { row in
                [
                    .init(row.receptionID, link: scope.link(.receptions, ["reception": row.receptionID])),
                    .init(Format.time(row.receivedAt)), .init(row.gtin), .init(row.productName),
                    .init(row.conditionLabel + (row.replacementRequested ? " (replacement asked for)" : "")),
                    .init(row.priorityLabel), .init(Format.time(row.inspectBefore)), .init(row.storageLocation),
                    .init(row.decommissionLabel),
                ]
            })
        table.emptyText = "No samples received yet."
        content.sections.append(.init("Receptions", table: table))
        content.footer = scope.footer(now: scope.pages.now())
        return content
    }

    /// One reception as the manufacturer is told of it.
    private func acknowledgement(_ id: String, own: String?) throws -> PageContent {
        guard !id.isEmpty, id.count <= 200 else {
            throw ReportError.badParameter(
                "reception", String(id.prefix(40)), expected: "a reception id of 1 to 200 characters")
        }
        guard let row = try translate({ try scope.queries.reception(id: id) }), own == nil || row.receivedBy == own
        else {
            throw ReportError.notFound("no reception \(id) of yours (check the id on the list of receptions)")
        }
        var content = PageContent(page: .receptions, title: "Acknowledgement of reception \(row.receptionID)")
        content.csvParameters = ["reception": row.receptionID].merging(scope.carried) { $1 }
        content.facts = [
            .init("To", row.manufacturer.isEmpty ? "the manufacturer" : row.manufacturer),
            .init("Product", row.productName.isEmpty ? row.gtin : "\(row.productName) (\(row.gtin))"),
            .init("Reception", row.receptionID), .init("Received", Format.time(row.receivedAt)),
            .init("Inspection centre", row.locationID), .init("Condition", row.conditionLabel),
            .init("Priority", row.priorityLabel), .init("Inspect before", Format.time(row.inspectBefore)),
            .init("After inspection", row.decommissionLabel), .init("Shelf", row.storageLocation),
        ]
        content.sections.append(.init("What happens next", note: row.acknowledgementNote))
        content.footer = scope.footer(now: scope.pages.now())
        return content
    }
}
