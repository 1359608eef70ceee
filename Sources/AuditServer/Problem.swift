import Foundation
import HTTPTypes
import Hummingbird

/// An error answered as `application/problem+json` (RFC 9457): a status, a stable `code` a
/// client can switch on, what went wrong (`detail`) and what to do about it (`remedy`).
public struct Problem: Error, HTTPResponseError, Sendable, Equatable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// Stable, kebab-case: `signature-missing`, `session-expired`, `forbidden`, …
    public var code: String
    /// What went wrong, for people.
    public var detail: String
    /// What to do about it.
    public var remedy: String
    /// Extension members (e.g. `outcomes`), each as JSON text.
    public var extra: [String: String] = [:]
    /// Seconds after which the same request may succeed (`Retry-After`), for 429 and 503.
    public var retryAfter: Int?

    /// Creates a problem.
    public init(_ status: HTTPResponse.Status, _ code: String, _ detail: String, remedy: String) {
        self.status = status
        self.code = code
        self.detail = detail
        self.remedy = remedy
    }

    /// The media type of every error body.
    public static let mediaType = "application/problem+json"

    /// The JSON body.
    public var body: [String: Any] {
        var body: [String: Any] = [
            "type": "https://itemaudit.example/problems/\(code)", "title": status.reasonPhrase,
            "status": status.code, "code": code, "detail": detail, "remedy": remedy,
        ]
        for (key, json) in extra {
            body[key] = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        }
        return body
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data("{}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = Self.mediaType
        if status == .unauthorized { headers[.wwwAuthenticate] = "ItemAudit-HMAC" }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        CachePolicy.apply(.noStore, to: &headers, status: status)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Problem {
    static func badRequest(_ code: String, _ detail: String, remedy: String) -> Problem {
        Problem(.badRequest, code, detail, remedy: remedy)
    }

    static func unauthorized(_ code: String, _ detail: String, remedy: String) -> Problem {
        Problem(.unauthorized, code, detail, remedy: remedy)
    }

    static func forbidden(_ detail: String, remedy: String = "ask an admin for a role that allows it") -> Problem {
        Problem(.forbidden, "forbidden", detail, remedy: remedy)
    }

    /// 413 for a body over a route's (or the server's) limit, naming the limit.
    static func bodyTooLarge(limit: Int, route: String?) -> Problem {
        let place = route.map { " for \($0)" } ?? ""
        return Problem(
            .contentTooLarge, "body-too-large", "the body is larger than the \(limit) bytes allowed\(place)",
            remedy: limit == 0 ? "send this request without a body" : "send at most \(limit) bytes (split the upload)")
    }

    static func notFound(_ detail: String, remedy: String) -> Problem {
        Problem(.notFound, "not-found", detail, remedy: remedy)
    }
}
