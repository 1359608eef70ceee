import AuditService
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

@testable import AuditServer

/// The browser's login form and cookie session: the same user store and bcrypt as
/// `POST /v1/sessions`, a cookie a script cannot read or another site send, a fixed lifetime.
@Suite("Web login")
struct WebLoginTests {
    /// The attributes of the `Set-Cookie` line for `name`.
    static func setCookie(_ response: TestResponse, _ name: String) -> String? {
        response.headers[values: .setCookie].first { $0.hasPrefix(name + "=") }
    }

    @Test("the form logs a manager in: 303 to the dashboard, then the dashboard answers with the cookie")
    func success() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            let form = try await browser.get("/login")
            #expect(form.status == .ok)
            #expect(form.headers[.contentType] == "text/html; charset=utf-8")
            let response = try await browser.login("manager")
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/")
            let dashboard = try await browser.get("/")
            #expect(dashboard.status == .ok, "\(String(buffer: dashboard.body).prefix(500))")
            #expect(String(buffer: dashboard.body).contains("<html"))
        }
    }

    @Test("over a real socket: the form, the cookie, a page, a same-origin logout")
    func live() async throws {
        // One kept-alive connection carries the whole walk, and the server closes it when the next
        // head is later than the head deadline after an answer (RequestDeadlineTests). Under the
        // parallel suite this task can wait longer than the default 10 s for a thread between two
        // requests; the deadline is not what this test is about, so it is generous here.
        let fixture = try await ServerFixture { clock in
            var configuration = ServerConfiguration(clock: clock)
            configuration.requestHeadTimeout = .seconds(600)
            return configuration
        }
        try await fixture.application().test(.live) { client in
            var browser = WebBrowser(client)
            #expect(try await browser.login("manager").status == .seeOther)
            let page = try await browser.get("/coverage?by=mode")
            #expect(page.status == .ok)
            let token = try WebBrowser.csrfToken(in: page)
            let logout = try await browser.post("/logout", [("csrf", token)])
            #expect(logout.status == .seeOther)
            #expect(try await browser.get("/").status == .seeOther)
        }
    }

    @Test("the session cookie is HttpOnly, SameSite=Strict, Path=/, lasts the session lifetime; Secure only on TLS")
    func cookieFlags() async throws {
        let fixture = try await ServerFixture { ServerConfiguration(sessionLifetime: .seconds(3600), clock: $0) }
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            let response = try await browser.login("auditor")
            let line = try #require(Self.setCookie(response, "itemaudit_session"))
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=3600"] {
                #expect(line.contains(attribute), "\(attribute) in \(line)")
            }
            #expect(!line.contains("Secure"), "plain HTTP (loopback) cannot carry a Secure cookie back")
            let value = try #require(browser.cookies["itemaudit_session"])
            #expect(value.count == 64)
        }
        // On TLS the same cookie is Secure.
        var tls = ServerConfiguration(clock: fixture.clock)
        tls.tls = (certificate: "unused.pem", key: "unused.pem")
        let site = WebSite(
            server: ServerState(service: fixture.service, configuration: tls, logger: Logger(label: "t")))
        #expect(site.sessionCookie("abc", maxAge: 60).description.contains("Secure"))
        #expect(site.loginTokenCookie("abc", maxAge: 60).description.contains("Secure"))
    }

    @Test("a wrong password gets the form again with 401 and no session cookie")
    func failure() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            let response = try await browser.login("manager", password: "not the password")
            #expect(response.status == .unauthorized)
            #expect(Self.setCookie(response, "itemaudit_session") == nil)
            #expect(String(buffer: response.body).contains("wrong"))
            #expect(try await browser.get("/").status == .seeOther)
            let unknown = try await browser.login("nobody", password: "whatever it is")
            #expect(unknown.status == .unauthorized)
        }
    }

    @Test("failures at the form throttle the form (429, Retry-After), never the signed device path")
    func throttle() async throws {
        let fixture = try await ServerFixture {
            ServerConfiguration(maxFailedLogins: 5, loginThrottleDuration: .seconds(900), clock: $0)
        }
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            for _ in 0..<4 {
                #expect(try await browser.login("manager", password: "wrong password").status == .unauthorized)
            }
            let fifth = try await browser.login("manager", password: "wrong password")
            #expect(fifth.status == .tooManyRequests)
            #expect(fifth.headers[.retryAfter] == "900")
            let throttled = try await browser.login("manager")
            #expect(throttled.status == .tooManyRequests)
            #expect(String(buffer: throttled.body).contains("Try again in"))
            #expect(browser.cookies["itemaudit_session"] == nil)
            // A stranger at the form cannot keep the user's device out.
            _ = try await fixture.login(client, "manager")
            fixture.clock.advance(microseconds: 901_000_000)
            #expect(try await browser.login("manager").status == .seeOther)
        }
    }

    @Test("a disabled user cannot log in, and an open browser session goes back to the login form")
    func disabled() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            try await browser.loggedIn("steward")
            #expect(try await browser.get("/search").status == .ok)
            _ = try await fixture.service.execute(
                identity: .disableUser(UserDisabled(username: "steward", reason: "left")), commandID: "off",
                actor: "admin")
            let page = try await browser.get("/search")
            #expect(page.status == .seeOther)
            #expect(page.headers[.location]?.hasPrefix("/login") == true)
            var other = WebBrowser(client)
            let response = try await other.login("steward")
            // The same answer as a wrong password: the form does not tell that the account exists.
            #expect(response.status == .unauthorized)
            #expect(String(buffer: response.body).contains("The user name or password is wrong."))
            #expect(other.cookies["itemaudit_session"] == nil)
        }
    }

    @Test("a session lasts its fixed lifetime on the server clock, then pages go back to the login form")
    func expiry() async throws {
        let fixture = try await ServerFixture { ServerConfiguration(sessionLifetime: .seconds(3600), clock: $0) }
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            try await browser.loggedIn("manager")
            fixture.clock.advance(microseconds: 3_599_000_000)
            #expect(try await browser.get("/coverage").status == .ok)
            fixture.clock.advance(microseconds: 2_000_000)
            #expect(try await browser.get("/coverage").status == .seeOther)
        }
    }

    @Test("logout ends the session on the server and clears the cookie")
    func logout() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            var browser = WebBrowser(client)
            try await browser.loggedIn("manager")
            let cookie = try #require(browser.cookies["itemaudit_session"])
            let token = try WebBrowser.csrfToken(in: try await browser.get("/"))
            let response = try await browser.post("/logout", [("csrf", token)])
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/login")
            #expect(browser.cookies["itemaudit_session"] == nil)
            // The old cookie, sent again, opens nothing.
            browser.cookies["itemaudit_session"] = cookie
            #expect(try await browser.get("/").status == .seeOther)
        }
    }

    @Test("no log line holds the password, the session cookie or the CSRF token")
    func nothingSecretLogged() async throws {
        let lines = LogLines()
        let fixture = try await ServerFixture()
        var logger = Logger(label: "capture") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .trace
        let server = ServerState(service: fixture.service, configuration: fixture.server.configuration, logger: logger)
        try await buildApplication(server).test(.router) { client in
            var browser = WebBrowser(client)
            _ = try await browser.login("manager", password: "wrong password")
            try await browser.loggedIn("manager")
            let page = try await browser.get("/coverage?by=mode")
            let token = try WebBrowser.csrfToken(in: page)
            _ = try await browser.post("/logout", [("csrf", token)])
            let secrets = [ServerFixture.password("manager"), "wrong password", token]
            let logged = lines.all
            #expect(!logged.isEmpty, "the requests were logged")
            for line in logged {
                for secret in secrets { #expect(!line.contains(secret), "\(line)") }
                #expect(line.range(of: "[0-9a-f]{64}", options: .regularExpression) == nil, "\(line)")
            }
        }
    }
}

/// Log lines kept by ``CapturingLogHandler``.
final class LogLines: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// Keeps every log line (message and metadata) for inspection.
struct CapturingLogHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.append("\(event.level) \(event.message) \(all)")
    }
}
