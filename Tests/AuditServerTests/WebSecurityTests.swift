import AuditService
import Foundation
import HTTPTypes
import HummingbirdTesting
import WebPages
import Testing

@testable import AuditServer

/// Posts need this session's form token and must come from this site; pages redirect to the
/// login form and back only to this server; HTML answers carry the security headers.
@Suite("Web security")
struct WebSecurityTests {
    static let datasheet = #"{"gtin":"06412345001009","productName":"Test"}"#

    @Test("a post without the CSRF token, or with a wrong one, is refused with 403 and does nothing")
    func csrf() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            try await browser.loggedIn("steward")
            let token = try WebBrowser.csrfToken(in: try await browser.get("/rules"))
            let before = fixture.service.log.lastPosition
            for fields in [[(String, String)](), [("csrf", "")], [("csrf", String(repeating: "0", count: 64))]] {
                let upload = WebBrowser.multipart(
                    fields: fields, file: (name: "datasheets", filename: "d.jsonl", content: Self.datasheet))
                let response = try await browser.send(
                    .post, "/rules", body: upload.body, contentType: upload.contentType)
                #expect(response.status == .forbidden, "rules post with \(fields)")
                #expect(String(buffer: response.body).contains("nothing was done"))
                let logout = try await browser.post("/logout", fields)
                #expect(logout.status == .forbidden, "logout with \(fields)")
            }
            #expect(fixture.service.log.lastPosition == before, "nothing appended")
            // Still logged in: the refused logouts did nothing.
            #expect(try await browser.get("/rules").status == .ok)
            // With the token the same upload is checked.
            let upload = WebBrowser.multipart(
                fields: [("csrf", token)], file: (name: "datasheets", filename: "d.jsonl", content: Self.datasheet))
            let checked = try await browser.send(.post, "/rules", body: upload.body, contentType: upload.contentType)
            #expect(checked.status.code < 400, "\(checked.status): \(String(buffer: checked.body).prefix(300))")
            #expect(fixture.service.log.lastPosition == before, "checking records nothing")
        }
    }

    @Test("another session's token does not do: tokens are per session")
    func tokenPerSession() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var first = WebBrowser(client)
            try await first.loggedIn("manager")
            var second = WebBrowser(client)
            try await second.loggedIn("manager")
            let firstToken = try WebBrowser.csrfToken(in: try await first.get("/"))
            let secondToken = try WebBrowser.csrfToken(in: try await second.get("/"))
            #expect(firstToken != secondToken)
            #expect(try await second.post("/logout", [("csrf", firstToken)]).status == .forbidden)
            #expect(try await second.post("/logout", [("csrf", secondToken)]).status == .seeOther)
        }
    }

    @Test("a post that another site sends (Origin or Sec-Fetch-Site) is refused even with the right token")
    func crossOrigin() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            try await browser.loggedIn("manager")
            let token = try WebBrowser.csrfToken(in: try await browser.get("/"))
            for header in [
                ("Origin", "https://evil.example"), ("Origin", "null"), ("Origin", "http://127.0.0.1:9999"),
                ("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Site", "same-site"),
            ] {
                let response = try await browser.post("/logout", [("csrf", token)], extraHeaders: [header])
                #expect(response.status == .forbidden, "\(header)")
            }
            // The login form too: another site cannot log a browser in.
            var stranger = WebBrowser(client)
            let loginToken = try await stranger.loginFormToken()
            let login = try await stranger.post(
                "/login",
                [("csrf", loginToken), ("username", "manager"), ("password", ServerFixture.password("manager"))],
                extraHeaders: [("Origin", "https://evil.example")])
            #expect(login.status == .forbidden)
            #expect(stranger.cookies["itemaudit_session"] == nil)
            // The same origin passes.
            let same = try await browser.post(
                "/logout", [("csrf", token)],
                extraHeaders: [("Origin", "http://\(WebBrowser.host)"), ("Sec-Fetch-Site", "same-origin")])
            #expect(same.status == .seeOther)
        }
    }

    @Test("a login post without the form's token (or with another) gets a fresh form, 403, and no session")
    func loginCSRF() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            _ = try await browser.loginFormToken()
            let fields = [("username", "manager"), ("password", ServerFixture.password("manager"))]
            for extra in [[(String, String)](), [("csrf", String(repeating: "a", count: 64))]] {
                let response = try await browser.post("/login", extra + fields)
                #expect(response.status == .forbidden)
                #expect(browser.cookies["itemaudit_session"] == nil)
            }
        }
    }

    @Test("a page without a session redirects to /login?next=<page>, and logging in goes back there")
    func redirectToLogin() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            for page in PageName.allCases {
                let path = WebPermissionTests.path(page, batchID: "B1")
                let response = try await browser.get(path)
                #expect(response.status == .seeOther, "\(path)")
                #expect(response.headers[.location]?.hasPrefix("/login?next=") == true, "\(path)")
            }
            let response = try await browser.get("/coverage?by=mode&from=2026-01-01")
            let location = try #require(response.headers[.location])
            let next = try #require(
                URLComponents(string: location)?.queryItems?.first { $0.name == "next" }?.value)
            #expect(next == "/coverage?by=mode&from=2026-01-01")
            let login = try await browser.login("manager", next: next)
            #expect(login.headers[.location] == "/coverage?by=mode&from=2026-01-01")
        }
    }

    @Test("next never leaves this server: schemes, //host, backslashes and control characters go to /")
    func noOpenRedirect() async throws {
        let hostile = [
            "//evil.example", "https://evil.example/", "/\\evil.example", "\\\\evil.example", "javascript:alert(1)",
            "/\t/evil.example", "evil.example", "", " /coverage", "/\r\nSet-Cookie:x=1",
        ]
        for next in hostile {
            let safe = WebSecurity.safeNext(next)
            #expect(safe == "/" || (safe.hasPrefix("/") && !safe.hasPrefix("//")), "\(next) → \(safe)")
            #expect(!safe.contains("evil"), "\(next) → \(safe)")
        }
        #expect(WebSecurity.safeNext("/product/06412345001009?x=1") == "/product/06412345001009?x=1")
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            for next in hostile {
                var browser = WebBrowser(client)
                let response = try await browser.login("manager", next: next)
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/", "next=\(next) → \(response.headers[.location] ?? "")")
                // Logged in already, the form itself redirects — also only here.
                let allowed = CharacterSet.alphanumerics
                let form = try await browser.get(
                    "/login?next=" + (next.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""))
                #expect(form.headers[.location] == "/", "GET /login?next=\(next)")
            }
        }
    }

    @Test("HTML answers carry CSP, nosniff, Referrer-Policy and no-store; the login form too")
    func securityHeaders() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            let form = try await browser.get("/login")
            try await browser.loggedIn("manager")
            let dashboard = try await browser.get("/")
            let forbidden = try await browser.get("/batch?batch=B404")
            for response in [form, dashboard, forbidden] {
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let csp = try #require(response.headers[.contentSecurityPolicy])
                for directive in [
                    "default-src 'none'", "img-src 'self' data:", "form-action 'self'", "frame-ancestors 'none'",
                ] {
                    #expect(csp.contains(directive), "\(directive) in \(csp)")
                }
                #expect(!csp.contains("script-src"), "pages run no script")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
                #expect(response.headers[.cacheControl] == "no-store")
            }
        }
    }

    @Test("a stored photo is served with its type to a logged-in browser, privately cached; a missing one is 404")
    func photo() async throws {
        let fixture = try await ServerFixture()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 7, 1, 2, 3]
        let receipt = try await fixture.service.photos.store(png, contentType: "image/png")
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            #expect(try await browser.get("/photos/\(receipt.sha256)").status == .seeOther, "needs a session")
            try await browser.loggedIn("auditor")
            let response = try await browser.get("/photos/\(receipt.sha256)")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/png")
            #expect(response.headers[.xContentTypeOptions] == "nosniff")
            #expect(response.headers[.cacheControl]?.hasPrefix("private") == true)
            #expect(Array(response.body.readableBytesView) == png)
            #expect(try await browser.get("/photos/" + String(repeating: "b", count: 64)).status == .notFound)
            #expect(try await browser.get("/photos/../../etc/passwd").status != .ok)
        }
    }
}
