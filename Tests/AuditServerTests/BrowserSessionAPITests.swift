import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import AuditServer

/// The `/v1` routes' second kind of session, for the inspector's web app: the web session cookie
/// with its CSRF token in `X-CSRF-Token`, under the same permission table as a device's session.
@Suite("The API with a browser's session")
struct BrowserSessionAPITests {
    /// A logged-in browser and its session's CSRF token (from a page's form, as the app gets it).
    static func loggedIn(_ client: some TestClientProtocol, _ username: String) async throws -> (WebBrowser, String) {
        var browser = WebBrowser(client)
        try await browser.loggedIn(username)
        let token = try WebBrowser.csrfToken(in: try await browser.get("/"))
        return (browser, token)
    }

    @Test("the cookie with its X-CSRF-Token reaches /v1 routes the role may call, and only those")
    func cookieAndToken() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var (manager, token) = try await Self.loggedIn(client, "manager")
            let me = try await manager.send(.get, "/v1/me", extraHeaders: [("X-CSRF-Token", token)])
            #expect(me.status == .ok)
            #expect(try ServerFixture.object(me)["username"] as? String == "manager")
            let coverage = try await manager.send(.get, "/v1/coverage", extraHeaders: [("X-CSRF-Token", token)])
            #expect(coverage.status == .ok)
            var (inspector, inspectorToken) = try await Self.loggedIn(client, "inspector")
            let refused = try await inspector.send(
                .get, "/v1/coverage", extraHeaders: [("X-CSRF-Token", inspectorToken)])
            #expect(refused.status == .forbidden, "the permission table applies to browsers too")
        }
    }

    @Test("without the token, with another session's token or from another site, the cookie alone does nothing")
    func cookieAloneRefused() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var (manager, token) = try await Self.loggedIn(client, "manager")
            let (_, otherToken) = try await Self.loggedIn(client, "auditor")
            let before = fixture.service.log.lastPosition
            let bundle = Array(
                ServerFixture.bundle([#"{"commandID":"b-1","type":"CancelBatch","batchID":"B404"}"#]).utf8)
            for headers in [
                [], [("X-CSRF-Token", otherToken)], [("X-CSRF-Token", String(token.reversed()))],
                [("X-CSRF-Token", token), ("Sec-Fetch-Site", "cross-site")],
                [("X-CSRF-Token", token), ("Origin", "https://evil.example")],
            ] {
                let answer = try await manager.send(
                    .post, "/v1/commands", body: bundle, contentType: "application/json", extraHeaders: headers)
                #expect(answer.status == .forbidden, "\(headers): \(answer.status)")
                #expect(answer.headers[.contentType] == Problem.mediaType)
            }
            #expect(fixture.service.log.lastPosition == before, "nothing appended")
        }
    }

    @Test("a session ended by logout, or an unknown cookie, is 401 on the API")
    func endedSession() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var (manager, token) = try await Self.loggedIn(client, "manager")
            let cookie = try #require(manager.cookies["itemaudit_session"])
            _ = try await manager.post("/logout", [("csrf", token)])
            manager.cookies["itemaudit_session"] = cookie
            let answer = try await manager.send(.get, "/v1/me", extraHeaders: [("X-CSRF-Token", token)])
            #expect(answer.status == .unauthorized)
            manager.cookies["itemaudit_session"] = String(repeating: "0", count: 64)
            #expect(try await manager.send(.get, "/v1/me", extraHeaders: [("X-CSRF-Token", token)]).status == .unauthorized)
        }
    }
}
