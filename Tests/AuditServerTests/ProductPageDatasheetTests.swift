import AuditService
import Foundation
import HummingbirdTesting
import Inspection
import Testing

@testable import AuditServer

/// The server's product page shows the current datasheet as `GET /v1/products/{gtin}` does:
/// the supplier's values, named and grouped by the attribute catalogue.
@Suite("The served product page's datasheet")
struct ProductPageDatasheetTests {
    @Test("/product?gtin= lists the current datasheet's values in the product answer's groups and order")
    func servedPage() async throws {
        let fixture = try await ServerFixture()
        let gtin = ServerFixture.gtin(4)
        let imported = try await fixture.service.execute(
            CommandEnvelope(
                commandID: "ds-new", actor: "admin",
                command: .importDatasheet(
                    ImportDatasheet(
                        gtin: gtin, datasheetID: "ds-new", source: "supplier",
                        attributes: [
                            DatasheetAttribute(path: "netContent", value: "500 GRM"),
                            DatasheetAttribute(path: "productName@fi", value: "Ruisleipä <b>"),
                        ]))))
        #expect(imported.status == .accepted, "\(imported)")
        let answer = try #require(await fixture.service.productDatasheet(gtin: gtin))
        try await fixture.application().test(.router) { client in
            var manager = WebBrowser(client)
            try await manager.loggedIn("manager")
            let page = String(buffer: try await manager.get("/product?gtin=\(gtin)").body)
            #expect(page.contains("Current datasheet (ds-new)"))
            #expect(page.contains("Ruisleipä &lt;b&gt;") && !page.contains("Ruisleipä <b>"))
            // The rows in the answer's order: each path after the one before it.
            var rest = Substring(page)
            for attribute in answer.attributes {
                let cell = "<td>\(attribute.path)</td>"
                let found = try #require(rest.range(of: cell), "\(attribute.path) missing or out of order")
                rest = rest[found.upperBound...]
            }
            #expect(answer.attributes.map(\.path) == ["productName@fi", "netContent"], "naming before quantity")
        }
    }
}
