import AuditService
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WebPages

extension WebSite {
    /// `GET /login?next=`: the form, with a fresh form token also set as a cookie (the login post
    /// must send both, so another site cannot log a browser in to an account of its choosing).
    func loginForm(_ request: Request) -> Response {
        let next = WebSecurity.safeNext(request.uri.queryParameters["next"].map(String.init))
        if visitor(request) != nil { return WebSecurity.redirect(to: next) }
        let token = WebSessionStore.randomToken()
        return loginPage(error: nil, status: .ok, token: token, next: next, setToken: true)
    }

    /// `POST /login`: the form's user name and password, checked like `POST /v1/sessions` (the same
    /// user store, bcrypt and throttling, counted apart from the API so the form cannot shut a device out). Success sets the session cookie and goes to `next`.
    func login(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        var request = request
        let fields = try await formFields(&request)
        let next = WebSecurity.safeNext(fields["next"])
        let loginToken = request.cookies[WebSecurity.loginCookie]?.value
        guard WebSecurity.isSameOrigin(request) else {
            throw WebRefusal(.forbidden, "This login form was sent from another site; nothing was done.")
        }
        guard let loginToken, WebSecurity.tokensMatch(fields[WebSecurity.csrfField], loginToken) else {
            // A stale form (cookies cleared, or another tab): a fresh one, nothing checked.
            let token = WebSessionStore.randomToken()
            return loginPage(
                error: "The login form had expired. Please log in again.", status: .forbidden, token: token,
                next: next, setToken: true)
        }
        let username = fields["username"] ?? ""
        let password = fields["password"] ?? ""
        guard !username.isEmpty, !password.isEmpty else {
            return loginPage(
                error: "Give both a user name and a password.", status: .badRequest, token: loginToken, next: next)
        }
        let source = ClientAddress.source(
            request, peer: context.peerAddress, trustedProxies: server.configuration.trustedProxies)
        switch try await server.checkLogin(username: username, password: password, path: .webForm, source: source) {
        case .accepted(let user):
            if let old = request.cookies[WebSecurity.sessionCookie]?.value { sessions.remove(old) }
            let (cookie, session) = sessions.create(username: user.username, now: server.now)
            let lifetime = Int(server.configuration.sessionLifetime.components.seconds)
            return WebSecurity.redirect(
                to: next,
                cookies: [
                    sessionCookie(cookie, maxAge: lifetime), csrfCookie(session.csrfToken, maxAge: lifetime),
                    loginTokenCookie("", maxAge: 0),
                ])
        case .throttled(let wait), .busy(let wait):
            var response = loginPage(
                error: "Too many login attempts. Try again in \(wait) seconds.", status: .tooManyRequests,
                token: loginToken, next: next)
            response.headers[.retryAfter] = String(wait)
            return response
        case .failed:
            return loginPage(
                error: "The user name or password is wrong.", status: .unauthorized, token: loginToken, next: next)
        }
    }

    /// `POST /logout`: ends the session (the form carries its CSRF token) and clears the cookie.
    func logout(_ request: Request, _ visitor: Visitor) async throws -> Response {
        var request = request
        let fields = try await formFields(&request)
        try checkPost(request, token: fields[WebSecurity.csrfField], expected: visitor.session.csrfToken)
        sessions.remove(visitor.cookie)
        return WebSecurity.redirect(to: "/login", cookies: [sessionCookie("", maxAge: 0), csrfCookie("", maxAge: 0)])
    }

    /// The login page from the Reports module, with the security headers and the form token cookie.
    func loginPage(
        error: String?, status: HTTPResponse.Status, token: String, next: String, setToken: Bool = false
    ) -> Response {
        let page = pages.renderLogin(error: error, csrfToken: token, next: next == "/" ? nil : next)
        var response = WebSecurity.html(page.html, status: status)
        if setToken { response.setCookie(loginTokenCookie(token, maxAge: 3600)) }
        return response
    }

    /// The session's CSRF token where the inspector's app (a script of this origin) can read it,
    /// to send as `X-CSRF-Token` on `/v1` calls: not HttpOnly, but SameSite=Strict, and useless
    /// without the HttpOnly session cookie it belongs to.
    func csrfCookie(_ value: String, maxAge: Int) -> Cookie {
        Cookie(
            name: WebSecurity.csrfCookie, value: value, maxAge: maxAge, path: "/",
            secure: server.configuration.tls != nil, httpOnly: false, sameSite: .strict)
    }

    /// The login form's token cookie: only sent back to `/login`.
    func loginTokenCookie(_ value: String, maxAge: Int) -> Cookie {
        Cookie(
            name: WebSecurity.loginCookie, value: value, maxAge: maxAge, path: "/login",
            secure: server.configuration.tls != nil, httpOnly: true, sameSite: .strict)
    }

    /// The fields of a urlencoded form body of at most ``formLimit`` bytes.
    func formFields(_ request: inout Request) async throws -> [String: String] {
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Self.formLimit)
        } catch is NIOTooManyBytesError {
            throw WebRefusal(.contentTooLarge, "The form is larger than \(Self.formLimit) bytes.")
        }
        return WebSecurity.formFields(body)
    }
}
