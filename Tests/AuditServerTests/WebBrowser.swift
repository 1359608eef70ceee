import AuditServer
import AuditService
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

/// A browser's view of the server in tests: a cookie jar, the login form, form posts with the
/// page's CSRF token — the requests a real browser sends, through the in-process router.
struct WebBrowser {
    let client: any TestClientProtocol
    /// Cookies by name, as the server set them.
    var cookies: [String: String] = [:]
    /// The authority the in-process router gives every request (an Origin header is compared with it).
    static let host = "localhost"

    init(_ client: some TestClientProtocol) { self.client = client }

    /// Sends a request with the jar's cookies; keeps the cookies the answer sets (Max-Age=0 removes).
    mutating func send(
        _ method: HTTPRequest.Method, _ uri: String, body: [UInt8] = [], contentType: String? = nil,
        extraHeaders: [(String, String)] = []
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: "; ")
        }
        if let contentType { headers[.contentType] = contentType }
        for (name, value) in extraHeaders { headers[HTTPField.Name(name)!] = value }
        let response = try await client.execute(
            uri: uri, method: method, headers: headers, body: body.isEmpty ? nil : ByteBuffer(bytes: body))
        for line in response.headers[values: .setCookie] {
            let pair = line.split(separator: ";").first?.split(separator: "=", maxSplits: 1) ?? []
            guard pair.count >= 1 else { continue }
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            if line.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        return response
    }

    /// GET.
    mutating func get(_ uri: String) async throws -> TestResponse { try await send(.get, uri) }

    /// Posts urlencoded fields.
    mutating func post(_ uri: String, _ fields: [(String, String)], extraHeaders: [(String, String)] = [])
        async throws -> TestResponse
    {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = fields.map {
            "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        return try await send(
            .post, uri, body: Array(body.utf8), contentType: "application/x-www-form-urlencoded",
            extraHeaders: extraHeaders)
    }

    /// The login form's token from its page (and its cookie, now in the jar).
    mutating func loginFormToken(next: String? = nil) async throws -> String {
        let form = try await get("/login" + (next.map { "?next=\($0)" } ?? ""))
        return try Self.csrfToken(in: form)
    }

    /// Logs in through the form; returns the answer (303 on success).
    mutating func login(_ username: String, password: String? = nil, next: String? = nil) async throws
        -> TestResponse
    {
        let token = try await loginFormToken()
        var fields = [
            ("csrf", token), ("username", username), ("password", password ?? ServerFixture.password(username)),
        ]
        if let next { fields.append(("next", next)) }
        return try await post("/login", fields)
    }

    /// Logs in and fails the test's setup unless it worked.
    mutating func loggedIn(_ username: String) async throws {
        let response = try await login(username)
        guard response.status == .seeOther, cookies["itemaudit_session"] != nil else {
            throw FixtureError("web login of \(username) answered \(response.status): \(String(buffer: response.body))")
        }
    }

    /// The CSRF token in a page's hidden `csrf` field.
    static func csrfToken(in response: TestResponse) throws -> String {
        let html = String(buffer: response.body)
        let patterns = [#"name="csrf"[^>]*value="([0-9a-f]{64})""#, #"value="([0-9a-f]{64})"[^>]*name="csrf""#]
        for pattern in patterns {
            if let match = html.range(of: pattern, options: .regularExpression) {
                let text = html[match]
                if let value = text.range(of: "[0-9a-f]{64}", options: .regularExpression) {
                    return String(text[value])
                }
            }
        }
        throw FixtureError("no csrf field in the page (\(response.status)):\n\(html.prefix(2000))")
    }

    /// A multipart body with text fields and one file.
    static func multipart(fields: [(String, String)], file: (name: String, filename: String, content: String))
        -> (body: [UInt8], contentType: String)
    {
        let boundary = "----itemaudit-test-boundary"
        var body = ""
        for (name, value) in fields {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        body +=
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\(file.content)\r\n--\(boundary)--\r\n"
        return (Array(body.utf8), "multipart/form-data; boundary=\(boundary)")
    }
}
