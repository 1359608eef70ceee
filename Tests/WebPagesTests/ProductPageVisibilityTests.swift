import AuditService
import Foundation
import WebPages
import Testing

/// The product page drawn for an inspector: every inspection's result, but of other inspectors'
/// inspections not who did them, in which batch or task, nor their photos, in the HTML and in
/// every table's CSV alike; a manager sees everything.
@Suite("The product page for an inspector")
struct ProductPageVisibilityTests {
    /// A product inspected by at least two inspectors, with photos of at least two; its quality
    /// history and photos as a manager sees them.
    static func sharedProduct(_ queries: AuditQueries) throws -> (ProductQuality, [InspectionPhoto]) {
        for item in try queries.search(ProductFilter(), limit: 200).items {
            guard let quality = try queries.product(gtin: item.gtin),
                Set(quality.inspections.map(\.inspectorID)).count >= 2
            else { continue }
            let photos = try queries.photos(gtin: item.gtin)
            if Set(photos.map(\.inspectorID)).count >= 2 { return (quality, photos) }
        }
        throw FixtureFailure("no product of the fixture was inspected and photographed by two inspectors")
    }

    @Test func anInspectorSeesEveryResultButOnlyTheirOwnNamesTasksAndPhotos() async throws {
        let fixture = try await ReportFixture()
        let (quality, photos) = try Self.sharedProduct(fixture.queries)
        let me = try #require(photos.first?.inspectorID)
        let viewer = PageViewer(userID: me, role: .inspector, csrfToken: "csrf-token-2")
        let theirs = quality.inspections.filter { $0.inspectorID != me }
        let theirPhotos = photos.filter { $0.inspectorID != me }
        let colleagues = Set(theirs.map(\.inspectorID) + theirPhotos.map(\.inspectorID))
        let parameters = ["gtin": quality.gtin]
        let pages = fixture.pages()

        let page = try await pages.render(.product, parameters: parameters, viewer: viewer)
        #expect(page.status == 200)
        var texts = [page.html]
        for table in ["inspections", "photos", "timeline-counts", "failing-attributes"] {
            texts.append(try await pages.renderCSV(.product, table: table, parameters: parameters, viewer: viewer))
        }
        for (index, text) in texts.enumerated() {
            let named = colleagues.filter { text.contains($0) }
            let listed = theirPhotos.filter { text.contains($0.sha256) }.map(\.sha256)
            #expect(named.isEmpty && listed.isEmpty, "text \(index) names \(named) and lists photos \(listed)")
        }
        for photo in photos where photo.inspectorID == me { #expect(page.html.contains(photo.sha256)) }
        #expect(page.html.contains(ColleagueRedaction.withheld))

        // Every result is there: a row per inspection, and the failing attributes a manager sees.
        func csv(_ table: String, _ viewer: PageViewer) async throws -> String {
            try await pages.renderCSV(.product, table: table, parameters: parameters, viewer: viewer)
        }
        let rows = try await csv("inspections", viewer)
        #expect(rows.split(whereSeparator: \.isNewline).count == quality.inspections.count + 1)
        #expect(try await csv("failing-attributes", viewer) == csv("failing-attributes", ReportFixture.manager))
        let managers = try await csv("inspections", ReportFixture.manager)
        for colleague in colleagues { #expect(managers.contains(colleague), "a manager sees \(colleague)") }
    }
}
