import AuditServer
import Foundation
import HummingbirdTesting
import Testing

/// The rules page's datasheet upload: for the roles that may check, on the check workers, and a
/// page whose size does not grow with the number of findings.
@Suite("Web datasheet checks")
struct WebDatasheetCheckTests {
    static func upload(_ browser: inout WebBrowser, _ content: String) async throws -> TestResponse {
        let token = try WebBrowser.csrfToken(in: try await browser.get("/search"))
        let form = WebBrowser.multipart(
            fields: [("csrf", token)], file: (name: "datasheets", filename: "d.jsonl", content: content))
        return try await browser.send(.post, "/rules", body: form.body, contentType: form.contentType)
    }

    @Test("an auditor reads the rules page without the upload form and cannot post it; a steward can")
    func auditorCannotUpload() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var auditor = WebBrowser(client)
            try await auditor.loggedIn("auditor")
            let page = try await auditor.get("/rules")
            #expect(page.status == .ok)
            #expect(!String(buffer: page.body).contains("enctype=\"multipart/form-data\""), "no upload form")
            let refused = try await Self.upload(&auditor, DatasheetRoutesTests.good)
            #expect(refused.status == .forbidden)
            var steward = WebBrowser(client)
            try await steward.loggedIn("steward")
            #expect(String(buffer: try await steward.get("/rules").body).contains("enctype=\"multipart/form-data\""))
            let checked = try await Self.upload(&steward, DatasheetRoutesTests.badGTIN)
            #expect(checked.status == .ok)
            #expect(String(buffer: checked.body).contains("6412345100072"))
        }
    }

    @Test("a large upload's page shows the totals and the first findings; its size stays bounded")
    func pageIsBounded() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var steward = WebBrowser(client)
            try await steward.loggedIn("steward")
            let small = try await Self.upload(&steward, DatasheetCheckBoundsTests.body(1200))
            let large = try await Self.upload(&steward, DatasheetCheckBoundsTests.body(3600))
            #expect(small.status == .ok && large.status == .ok)
            #expect(String(buffer: large.body).contains(">3600<"), "the totals count every datasheet")
            // Both show the first findings only: three times the upload is not three times the page.
            let ratio = Double(large.body.readableBytes) / Double(small.body.readableBytes)
            #expect(ratio < 1.3, "\(small.body.readableBytes) → \(large.body.readableBytes) bytes")
        }
    }
}
