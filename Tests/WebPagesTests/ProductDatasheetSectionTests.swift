import AuditService
import Foundation
import Inspection
import TestSupport
import Testing
import WebPages

/// The product page's current datasheet: the supplier's values in the groups and order an
/// inspector's task shows them, every value escaped; left out of a page as of an earlier position
/// and of pages without a datasheet source (a static report).
@Suite("The product page's datasheet")
struct ProductDatasheetSectionTests {
    static let gtin = "06414890000059"
    /// Values a supplier sent, one of them hostile, in an order unlike the catalogue's.
    static let values: [(path: String, value: String)] = [
        ("netContent", "1000 MLT"), ("hasAllergen[GO].allergenLevelOfContainmentCode", "CONTAINS"),
        ("productName@fi", "Kaurajuoma <script>alert('x')</script> & \"muuta\""), ("gtin", gtin),
        ("sportingActivityType", "none"),
    ]

    @Test func valuesAreGroupedInCatalogueOrderNamedAndEscaped() async throws {
        try await withTemporaryDirectory(prefix: "itemaudit-datasheet-page") { directory in
            let service = try await AuditService.open(dataDirectory: directory, logger: quietLogger)
            let commands: [InspectionCommand] = [
                .registerProduct(
                    RegisterProduct(
                        gtin: Self.gtin, name: "Oat drink", brand: "B", manufacturer: "M", productType: .base,
                        category: "Drinks")),
                .importDatasheet(
                    ImportDatasheet(
                        gtin: Self.gtin, datasheetID: "ds-<1>", source: "supplier",
                        attributes: Self.values.map { DatasheetAttribute(path: $0.path, value: $0.value) })),
            ]
            for (index, command) in commands.enumerated() {
                let outcome = try await service.execute(
                    CommandEnvelope(commandID: "c\(index)", actor: "steward", occurredAt: nil, command: command))
                #expect(outcome.status == .accepted, "\(outcome)")
            }
            _ = try service.queries.refresh()
            let device = try #require(await service.productDatasheet(gtin: Self.gtin))
            let pages = ReportPages(queries: service.queries, links: .server(basePath: "/pages"))
                .withDatasheets { gtin in await service.productDatasheet(gtin: gtin) }

            let page = try await pages.render(.product, parameters: ["gtin": Self.gtin], viewer: ReportFixture.manager)
            #expect(page.status == 200)
            let table = try #require(ParsedPage(html: page.html).tables["datasheet"], "no datasheet table")
            #expect(table.headers == ["group", "attribute", "supplier value", "unit", "in words", "path"])
            // The rows are the device answer's attributes, in its order, with its group names.
            let names = Dictionary(uniqueKeysWithValues: device.groups.map { ($0.id, $0.name) })
            #expect(table.rows.map { $0[safe: 5] } == device.attributes.map(\.path))
            #expect(table.rows.map { $0[safe: 0] } == device.attributes.map { names[$0.group]?.htmlEscaped })
            #expect(table.rows.map { $0[safe: 1] } == device.attributes.map(\.name.htmlEscaped))
            let groupOrder = device.groups.map(\.order)
            #expect(groupOrder == groupOrder.sorted() && device.groups.last?.id == "other")
            let net = try #require(table.rows.first { $0[safe: 5] == "netContent" })
            #expect(Array(net[1...2]) == ["Net quantity", "1000 MLT"] && net[4] == "1000 ml", "\(net)")
            #expect(!net[3].isEmpty, "a measured attribute's unit: \(net)")
            let name = try #require(table.rows.first { $0[safe: 5] == "productName@fi" })
            #expect(name[2] == Self.values[2].value.htmlEscaped)
            #expect(!page.html.contains("<script>alert") && !page.html.contains("ds-<1>"))
            #expect(page.html.contains("Current datasheet (ds-&lt;1&gt;)"))
            let csv = try await pages.renderCSV(
                .product, table: "datasheet", parameters: ["gtin": Self.gtin], viewer: ReportFixture.manager)
            #expect(csv.split(whereSeparator: \.isNewline).count == device.attributes.count + 1)

            // As of an earlier position the values (today's) are left out; so they are without a source.
            let earlier = try await pages.render(
                .product, parameters: ["gtin": Self.gtin, "as-of": "1"], viewer: ReportFixture.manager)
            #expect(earlier.status == 200 && ParsedPage(html: earlier.html).tables["datasheet"] == nil)
            let plain = ReportPages(queries: service.queries, links: .server(basePath: "/pages"))
            let withoutSource = try await plain.render(
                .product, parameters: ["gtin": Self.gtin], viewer: ReportFixture.manager)
            #expect(withoutSource.status == 200 && ParsedPage(html: withoutSource.html).tables["datasheet"] == nil)
            try await service.close()
        }
    }
}
