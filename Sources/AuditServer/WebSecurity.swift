import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WebPages

/// The browser side's protections that are not the session itself: response headers, the
/// cross-origin check on posts, CSRF token comparison and the login redirect's target.
enum WebSecurity {
    /// The cookie holding the session.
    static let sessionCookie = "itemaudit_session"
    /// The cookie holding the login form's token until the login succeeds (double submit).
    static let loginCookie = "itemaudit_login"
    /// The cookie a page's script reads the session's CSRF token from.
    static let csrfCookie = "itemaudit_csrf"
    /// The form field carrying the CSRF token.
    static let csrfField = "csrf"

    /// Pages run no script and load nothing from elsewhere: styles inline, images from this
    /// server or `data:`, forms posting only here, never framed.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    /// The headers of every browser response.
    static func headers(contentType: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "same-origin"
        headers[.xFrameOptions] = "DENY"
        // Pages show the data of the logged-in user: never kept by a shared cache or the back button.
        headers[.cacheControl] = "no-store"
        return headers
    }

    /// An HTML response with the security headers.
    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: headers(contentType: "text/html; charset=utf-8"),
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A `303 See Other` to a path on this server.
    static func redirect(to location: String, cookies: [Cookie] = []) -> Response {
        var headers = headers(contentType: "text/plain; charset=utf-8")
        headers[.location] = location
        var response = Response(status: .seeOther, headers: headers)
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    /// The icon browsers fetch by themselves: a small SVG (a check mark on dark blue), cached a day.
    static func favicon() -> Response {
        let svg =
            ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1d3557"/>"##
            + ##"<path d="M4 8.5l2.5 2.5L12 5" fill="none" stroke="#fff" stroke-width="2"/></svg>"##
        var headers = headers(contentType: "image/svg+xml")
        headers[.cacheControl] = "public, max-age=86400"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: svg)))
    }

    /// Whether a post comes from a page of this server: refused when the browser says it comes
    /// from another site (`Sec-Fetch-Site`) or names another origin (`Origin`). A client that
    /// sends neither header (not a browser, or an old one) still needs the CSRF token.
    static func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers[.secFetchSite], site != "same-origin" { return false }
        guard let origin = request.headers[.origin] else { return true }
        // An origin is scheme://host[:port], the port only when not the scheme's default, as in Host.
        guard let authority = request.head.authority, let separator = origin.range(of: "://") else { return false }
        return origin[separator.upperBound...].lowercased() == authority.lowercased()
    }

    /// Compares two tokens in time independent of where they differ.
    static func tokensMatch(_ a: String?, _ b: String) -> Bool {
        guard let a, !a.isEmpty, !b.isEmpty else { return false }
        return RequestSigning.constantTimeEqual(a, b)
    }

    /// The target after login: a path on this server (`/coverage?by=mode`), never another site.
    /// Anything else — a scheme, `//host`, a backslash, control characters — becomes `/`.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), next.utf8.count <= 2048 else { return "/" }
        let bytes = Array(next.utf8)
        if bytes.count > 1, bytes[1] == UInt8(ascii: "/") || bytes[1] == UInt8(ascii: "\\") { return "/" }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\\") }) else { return "/" }
        // Let the URL parser agree that it is a path with no host.
        guard let url = URL(string: next), url.scheme == nil, url.host == nil else { return "/" }
        return next
    }

    /// `application/x-www-form-urlencoded` fields (the last of a repeated name wins).
    static func formFields(_ body: ByteBuffer) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(buffer: body).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            guard let name = parts.first else { continue }
            fields[decode(name)] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }

    /// The server's own small page for a refusal or an error (the report pages have their own).
    static func errorPage(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let title = "\(status.code) \(status.reasonPhrase)"
        return html(
            """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(HTML.escape(title)) – ItemAudit</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body style="font-family:sans-serif;max-width:40em;margin:2em auto;color:#111;background:#fff">
            <h1>\(HTML.escape(title))</h1><p>\(HTML.escape(message))</p><p><a href="/">Back to the dashboard</a></p>
            </body></html>
            """, status: status)
    }
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
}
