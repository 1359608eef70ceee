import AuditService
import Foundation
import HTTPTypes
import HummingbirdTesting
import WebPages
import Testing

@testable import AuditServer

/// Every role against every browser route, decided by the one permission table, and an
/// inspector's reach limited to their own work as in the API.
@Suite("Web permission matrix")
struct WebPermissionTests {
    /// Gives `inspector` a batch (B1) at the fixture's store.
    static func allocateBatch(_ fixture: ServerFixture) async throws -> String {
        let envelope = try CommandEnvelope(
            jsonLine:
                #"{"commandID":"web-a1","type":"AllocateBatch","inspectorID":"inspector","locationID":"S1","mode":2,"quantity":2,"actor":"inspector"}"#
        )
        _ = try await fixture.service.execute(bundle: [envelope])
        let batch = try #require(
            await fixture.service.deviceBatches(inspectorID: "inspector", status: nil, mode: nil).first)
        return batch.batchID
    }

    /// A concrete path for each page.
    static func path(_ page: PageName, batchID: String) -> String {
        switch page {
        case .product: "/product?gtin=\(ServerFixture.gtin(0))"
        case .batch: "/batch?batch=\(batchID)"
        case .history: "/history?gtin=\(ServerFixture.gtin(0))"
        default: WebRoute.path(of: page)
        }
    }

    @Test("each role is refused (403) exactly the pages the table leaves out", arguments: UserRole.allCases)
    func matrix(_ role: UserRole) async throws {
        let fixture = try await ServerFixture()
        let batchID = try await Self.allocateBatch(fixture)
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            try await browser.loggedIn(role.name)
            for route in WebRoute.allCases where route.method == .get && route.needsSession && route != .photo {
                let page: PageName
                switch route {
                case .home: page = .dashboard
                case .page(let named): page = named
                default: continue
                }
                let path = route == .home ? "/" : Self.path(page, batchID: batchID)
                let response = try await browser.get(path)
                let allowed = PermissionTable.allows(role, route)
                let body = String(buffer: response.body).prefix(300)
                if allowed {
                    #expect(response.status == .ok, "\(role.name) \(path): \(response.status) \(body)")
                    if page == .rules {
                        // The upload form is offered to exactly the roles that may post it.
                        #expect(
                            String(buffer: response.body).contains(#"class="upload""#)
                                == PermissionTable.allows(role, .checkDatasheet), "\(role.name) rules form")
                    }
                } else {
                    #expect(response.status == .forbidden, "\(role.name) \(path): \(response.status) \(body)")
                }
            }
            // The datasheet check (a post) and the photos follow the same table.
            // Every role may search; the page carries the session's form token (in its logout form).
            let token = try WebBrowser.csrfToken(in: try await browser.get("/search"))
            let upload = WebBrowser.multipart(
                fields: [("csrf", token)], file: (name: "datasheets", filename: "d.jsonl", content: "{}"))
            let check = try await browser.send(.post, "/rules", body: upload.body, contentType: upload.contentType)
            #expect(
                (check.status == .forbidden) == !PermissionTable.allows(role, .checkDatasheet),
                "\(role.name) POST /rules: \(check.status)")
            let photo = try await browser.get("/photos/" + String(repeating: "a", count: 64))
            #expect(
                (photo.status == .forbidden) == !PermissionTable.allows(role, .photo),
                "\(role.name) photo: \(photo.status)")
        }
    }

    @Test("a page opens to no role that the API refuses the same data (but an inspector's own analytics)")
    func pagesFollowTheAPI() {
        let data: [(PageName, Endpoint)] = [
            (.coverage, .coverage), (.inspectors, .inspectorAnalytics), (.product, .getProduct), (.batch, .getBatch),
            (.history, .history), (.search, .searchProducts), (.categories, .categories),
        ]
        for (page, endpoint) in data {
            var extra = PermissionTable.roles(for: .page(page)).subtracting(PermissionTable.roles(for: endpoint))
            if page == .inspectors { extra.remove(.inspector) }
            #expect(extra.isEmpty, "\(page) opens to \(extra.map(\.name)) beyond \(endpoint)")
        }
        #expect(!PermissionTable.allows(.inspector, .page(.coverage)))
        #expect(!PermissionTable.allows(.receiver, .page(.history)))
        #expect(PermissionTable.roles(for: .home) == PermissionTable.roles(for: .page(.dashboard)))
        // The upload is for those who act on datasheets; auditors read the rules page only.
        #expect(PermissionTable.roles(for: .checkDatasheet).isStrictSubset(of: PermissionTable.roles(for: .page(.rules))))
    }

    @Test("an inspector opens their own batch page, not a colleague's; a manager opens both")
    func ownBatchOnly() async throws {
        let fixture = try await ServerFixture()
        let batchID = try await Self.allocateBatch(fixture)
        try await fixture.application().test(.router) { client in
            var owner = WebBrowser(client)
            try await owner.loggedIn("inspector")
            #expect(try await owner.get("/batch?batch=\(batchID)").status == .ok)
            var colleague = WebBrowser(client)
            try await colleague.loggedIn("inspector2")
            let refused = try await colleague.get("/batch?batch=\(batchID)")
            #expect(refused.status == .forbidden)
            #expect(String(buffer: refused.body).contains("another inspector"))
            #expect(try await colleague.get("/batch?batch=B999").status == .notFound)
            var manager = WebBrowser(client)
            try await manager.loggedIn("manager")
            #expect(try await manager.get("/batch?batch=\(batchID)").status == .ok)
        }
    }

    @Test("an inspector's inspector filter is always their own id, whatever the URL says")
    func inspectorPinned() {
        let query = [("inspector", "inspector2"), ("q", "a")]
        let pinned = WebSite.parameters(query: query, roles: [.inspector], userID: "inspector")
        #expect(pinned == ["inspector": "inspector", "q": "a"])
        let manager = WebSite.parameters(query: query, roles: [.manager], userID: "manager")
        #expect(manager["inspector"] == "inspector2")
    }
}
