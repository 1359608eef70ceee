import AuditService
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import WebPages

/// The browser side of `itemaudit serve`: the report pages, their CSV tables, the login form and
/// photo thumbnails, authenticated by a session cookie (a browser cannot sign requests).
///
/// Each request goes through ``handle(_:_:_:)``: the cookie session (else a redirect to the
/// login form), the permission table, and for a post the same-origin check and the session's
/// CSRF token, before the route's handler runs. Failures are answered as small HTML pages, not
/// problem+json, since a person reads them.
struct WebSite: Sendable {
    let server: ServerState
    var sessions: WebSessionStore { server.webSessions }

    init(server: ServerState) { self.server = server }

    /// The largest login or logout form body.
    static let formLimit = 16 << 10

    /// The logged-in browser behind a request.
    struct Visitor: Sendable {
        var user: IdentityState.User
        var session: WebSessionStore.Session
        /// The cookie value (to end the session on logout; never logged).
        var cookie: String
    }

    /// Authenticates, authorises and answers one browser request; never throws (errors are pages).
    func handle(_ route: WebRoute, _ request: Request, _ context: ServerRequestContext) async -> Response {
        do {
            switch route {
            case .login: return try await login(request, context)
            case .loginForm: return loginForm(request)
            case .favicon: return WebSecurity.favicon()
            case .appShell, .appFile, .appAsset: return AppAssets.answer(route, request, context)
            default: break
            }
            guard let visitor = visitor(request) else {
                if route.method == .get { return WebSecurity.redirect(to: Self.loginLocation(for: request)) }
                return WebSecurity.errorPage(
                    .forbidden, "Your session has ended. Log in again, then send the form again.")
            }
            guard PermissionTable.allows(visitor.user.roles, route) else {
                return WebSecurity.errorPage(
                    .forbidden,
                    "The roles \(visitor.user.roleNames.joined(separator: ", ")) may not open this page. Ask an admin for a role that can."
                )
            }
            switch route {
            case .logout: return try await logout(request, visitor)
            case .home: return try await page(.dashboard, request, context, visitor)
            case .page(let name): return try await page(name, request, context, visitor)
            case .checkDatasheet: return try await checkDatasheet(request, visitor)
            case .photo: return await photo(context, visitor)
            case .accounts: return accountsPage(visitor)
            case .changeAccounts: return try await changeAccounts(request, visitor)
            case .loginForm, .login, .favicon, .appShell, .appFile, .appAsset:
                return WebSecurity.errorPage(.notFound, "No such page.")
            }
        } catch let refusal as WebRefusal {
            return WebSecurity.errorPage(refusal.status, refusal.message)
        } catch let error as ReportError where error.status < 500 {
            return WebSecurity.errorPage(HTTPResponse.Status(code: error.status), error.message)
        } catch let error as AuditServiceError where error.code == .invalidRequest {
            return WebSecurity.errorPage(.badRequest, error.message)
        } catch {
            context.logger.error("page failed", metadata: ["route": "\(route.label)", "error": "\(error)"])
            return WebSecurity.errorPage(
                .internalServerError, "The server could not answer this page (the request id is in its log). Try again."
            )
        }
    }

    /// The live session and enabled user of the request's cookie, if any.
    func visitor(_ request: Request) -> Visitor? {
        guard let cookie = request.cookies[WebSecurity.sessionCookie]?.value,
            let session = sessions.resolve(cookie, now: server.now)
        else { return nil }
        guard let user = server.service.identity.user(session.username), !user.disabled else {
            sessions.remove(cookie)
            return nil
        }
        return Visitor(user: user, session: session, cookie: cookie)
    }

    /// `/login?next=<this path and query>`.
    static func loginLocation(for request: Request) -> String {
        let target = request.uri.description
        let allowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?#"))
        return "/login?next=" + (target.addingPercentEncoding(withAllowedCharacters: allowed) ?? "/")
    }

    /// Refuses a post that another site sent or that lacks this session's form token.
    func checkPost(_ request: Request, token: String?, expected: String) throws(WebRefusal) {
        guard WebSecurity.isSameOrigin(request) else {
            throw WebRefusal(.forbidden, "This form was sent from another site; nothing was done.")
        }
        guard WebSecurity.tokensMatch(token, expected) else {
            throw WebRefusal(
                .forbidden,
                "The form's security token is missing or out of date; nothing was done. Reload the page and send it again."
            )
        }
    }

    /// The session cookie (or its removal, with `value` empty and no lifetime).
    func sessionCookie(_ value: String, maxAge: Int) -> Cookie {
        Cookie(
            name: WebSecurity.sessionCookie, value: value, maxAge: maxAge, path: "/",
            secure: server.configuration.tls != nil, httpOnly: true, sameSite: .strict)
    }
}

/// A browser request refused with a status and a sentence for the person.
struct WebRefusal: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String
    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }
}
