import AuditService
import Foundation
import Testing
import WebPages

/// The receptions page and a reception's printable acknowledgement for the manufacturer.
@Suite("Receptions page", .serialized)
struct ReceptionsPageTests {
    @Test("the acknowledgement names the product, the reception and what happens next; a receiver opens only their own")
    func acknowledgement() async throws {
        let fixture = try await ReportFixture(products: 60, days: 4)
        let pages = fixture.pages()
        let all = try fixture.queries.receptions(limit: 200)
        let row = try #require(all.items.first, "the generator received no samples")
        let page = try await pages.render(
            .receptions, parameters: ["reception": row.receptionID], viewer: ReportFixture.manager)
        #expect(page.status == 200)
        #expect(page.html.contains("Acknowledgement of reception \(row.receptionID)"))
        #expect(page.html.contains(row.gtin) && page.html.contains(row.storageLocation))
        #expect(
            page.html.contains(row.acknowledgementNote.replacingOccurrences(of: "'", with: "&#39;"))
                || page.html.contains(row.acknowledgementNote))

        let list = try await pages.render(.receptions, parameters: [:], viewer: ReportFixture.manager)
        #expect(list.status == 200 && list.html.contains("?reception=\(row.receptionID)"))

        let ownReceiver = PageViewer(userID: row.receivedBy, role: .receiver)
        #expect(
            try await pages.render(.receptions, parameters: ["reception": row.receptionID], viewer: ownReceiver).status
                == 200)
        let otherReceiver = PageViewer(userID: "someone-else", role: .receiver)
        #expect(
            try await pages.render(.receptions, parameters: ["reception": row.receptionID], viewer: otherReceiver)
                .status == 404)
        let empty = try await pages.render(.receptions, parameters: [:], viewer: otherReceiver)
        #expect(empty.status == 200 && empty.html.contains("No samples received yet."))
        #expect(
            try await pages.render(.receptions, parameters: ["reception": "nope"], viewer: ReportFixture.manager).status
                == 404)
        let inspector = PageViewer(userID: "inspector-1", role: .inspector)
        #expect(try await pages.render(.receptions, parameters: [:], viewer: inspector).status == 403)
    }
}
