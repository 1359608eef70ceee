import AuditLog
import AuditService
import Foundation
import WebPages
import Testing

@Suite("Photos and the last verification")
struct PhotoAndVerificationTests {
    /// A product of the fixture with stored photos, and its photos.
    static func productWithPhotos(_ queries: AuditQueries) throws -> (String, [InspectionPhoto]) {
        for item in try queries.search(ProductFilter(), limit: 200).items {
            let photos = try queries.photos(gtin: item.gtin)
            if photos.contains(where: { queries.isPhotoStored(sha256: $0.sha256) }) { return (item.gtin, photos) }
        }
        throw FixtureFailure("no product of the fixture has a stored photo")
    }

    @Test func theProductPageShowsItsStoredPhotosAsThumbnailsWithTheirImage() async throws {
        let fixture = try await ReportFixture()
        let (gtin, photos) = try Self.productWithPhotos(fixture.queries)
        let stored = photos.filter { fixture.queries.isPhotoStored(sha256: $0.sha256) }
        let page = try await fixture.pages().render(.product, parameters: ["gtin": gtin], viewer: ReportFixture.manager)
        #expect(page.status == 200)
        let images = matches(#"<img src="([^"]+)" width="160" height="120" alt="([^"]+)""#, in: page.html)
        #expect(images.map { $0[1] } == stored.map { "/pages/photos/" + $0.sha256 })
        #expect(images.allSatisfy { $0[2].hasPrefix("Photo of product \(gtin) taken in task ") })
        // The table lists every photo, stored or not.
        #expect(page.html.contains("Photos, oldest first"))
        for photo in photos { #expect(page.html.contains(photo.sha256)) }
        // The image is the one the log names: its bytes hash to it.
        let first = try #require(stored.first)
        let bytes = try #require(fixture.queries.photoBytes(sha256: first.sha256))
        #expect(PhotoStore.sha256(bytes) == first.sha256 && bytes.count == first.byteCount)

        // Drawn for a static report, the thumbnails are files beside the page.
        let offline = try await fixture.pages(.staticFiles).render(
            .product, parameters: ["gtin": gtin], viewer: .report)
        let files = matches(#"<img src="([^"]+)""#, in: offline.html).map { $0[1] }
        #expect(files == stored.map { PageLinks.photoFile(sha256: $0.sha256, contentType: $0.contentType) })
        #expect(files.allSatisfy { $0.hasPrefix("photos/") && ($0.hasSuffix(".jpg") || $0.hasSuffix(".png")) })
    }

    @Test func theDashboardShowsTheLastVerification() async throws {
        let fixture = try await ReportFixture()
        let before = try await fixture.pages().render(.dashboard, parameters: [:], viewer: ReportFixture.manager)
        #expect(before.html.contains("never verified here"))
        let at = Timestamp(microsecondsSinceEpoch: 1_780_000_000_000_000)
        let note = try fixture.queries.verifyLog(now: at)
        let after = try await fixture.pages().render(.dashboard, parameters: [:], viewer: ReportFixture.manager)
        #expect(after.html.contains("\(at.iso8601): intact, \(note.report.eventCount) events"))
        #expect(after.html.contains("head \(note.report.headHash)"))
    }
}
