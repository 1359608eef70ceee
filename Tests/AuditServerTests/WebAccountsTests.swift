import AuditService
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import AuditServer

/// The admin's accounts page (`/admin/accounts`): lists users and apps, and its forms (with the
/// session's CSRF token) add, change roles or password, disable and revoke; values are escaped;
/// other roles get 403; a new app's secret is on the answer to its form only.
@Suite("Web accounts page")
struct WebAccountsTests {
    @Test("an admin adds an inspector who manages, sets roles and a password, disables; a new app's secret shows once")
    func adminForms() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            try await browser.loggedIn("admin")
            let page = try await browser.get("/admin/accounts")
            #expect(page.status == .ok)
            #expect(page.headers[.contentSecurityPolicy] == WebSecurity.contentSecurityPolicy)
            let html = String(buffer: page.body)
            #expect(html.contains("<td>inspector2</td>") && html.contains("<td>test-app</td>"))
            #expect(!html.contains("$2"), "no password hash on the page")
            let csrf = try WebBrowser.csrfToken(in: page)

            let added = try await browser.post(
                "/admin/accounts",
                [
                    ("csrf", csrf), ("action", "addUser"), ("username", "lead"), ("name", "<b>Lead</b>"),
                    ("password", "lead long password"), ("role-inspector", "on"), ("role-manager", "on"),
                ])
            #expect(added.status == .ok)
            let addedHTML = String(buffer: added.body)
            #expect(addedHTML.contains("Added user lead."))
            #expect(addedHTML.contains("&lt;b&gt;Lead&lt;/b&gt;") && !addedHTML.contains("<b>Lead</b>"))
            #expect(!addedHTML.contains("lead long password"))
            #expect(fixture.service.identity.user("lead")?.roles == [.inspector, .manager])

            let roles = try await browser.post(
                "/admin/accounts",
                [("csrf", csrf), ("action", "setRoles"), ("username", "receiver"), ("role-auditor", "on")])
            #expect(String(buffer: roles.body).contains("User receiver now has roles auditor."))
            #expect(fixture.service.identity.user("receiver")?.roles == [.auditor])

            let short = try await browser.post(
                "/admin/accounts",
                [("csrf", csrf), ("action", "setPassword"), ("username", "receiver"), ("password", "short")])
            #expect(short.status == .badRequest)
            #expect(String(buffer: short.body).contains("shorter than 8"))
            let password = try await browser.post(
                "/admin/accounts",
                [("csrf", csrf), ("action", "setPassword"), ("username", "receiver"), ("password", "a new password")])
            #expect(password.status == .ok)
            #expect(fixture.service.authenticate(username: "receiver", password: "a new password") != nil)

            let disabled = try await browser.post(
                "/admin/accounts",
                [("csrf", csrf), ("action", "disableUser"), ("username", "steward"), ("reason", "left")])
            #expect(disabled.status == .ok)
            #expect(fixture.service.identity.user("steward")?.disabled == true)

            let app = try await browser.post(
                "/admin/accounts",
                [("csrf", csrf), ("action", "addApp"), ("name", "Anna's phone"), ("appID", "phone-1")])
            let appHTML = String(buffer: app.body)
            let secret = try #require(
                appHTML.range(of: "<code>[0-9a-f]{64}</code>", options: .regularExpression).map {
                    String(appHTML[$0].dropFirst(6).dropLast(7))
                })
            #expect(appHTML.contains("Anna&#39;s phone") || appHTML.contains("Anna&#x27;s phone"))
            let again = try await browser.get("/admin/accounts")
            #expect(!String(buffer: again.body).contains(secret), "the secret is shown once")
            let revoked = try await browser.post(
                "/admin/accounts", [("csrf", csrf), ("action", "revokeApp"), ("appID", "phone-1")])
            #expect(String(buffer: revoked.body).contains("Revoked app phone-1."))
            #expect(fixture.service.identity.app("phone-1")?.revoked == true)
        }
    }

    @Test("without the form's token, or as a manager, nothing changes")
    func refused() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var admin = WebBrowser(client)
            try await admin.loggedIn("admin")
            let noToken = try await admin.post(
                "/admin/accounts",
                [("action", "disableUser"), ("username", "inspector")])
            #expect(noToken.status == .forbidden)
            #expect(fixture.service.identity.user("inspector")?.disabled == false)

            var manager = WebBrowser(client)
            try await manager.loggedIn("manager")
            #expect(try await manager.get("/admin/accounts").status == .forbidden)
            let dashboard = try await manager.get("/")
            let csrf = try WebBrowser.csrfToken(in: dashboard)
            let posted = try await manager.post(
                "/admin/accounts", [("csrf", csrf), ("action", "disableUser"), ("username", "inspector")])
            #expect(posted.status == .forbidden)
            #expect(fixture.service.identity.user("inspector")?.disabled == false)
        }
    }
}
