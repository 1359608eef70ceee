import AsyncHTTPClient
import AuditServer
import Foundation
import NIOCore
import NIOHTTP1

/// The admin routes of a running `itemaudit serve` (`/v1/admin/…`), called as a device does:
/// every request signed by a registered app, the admin logged in with a bearer session. The CLI's
/// `users` and `apps` commands use it with `--server`, while the server holds the log.
///
/// ```swift
/// let client = try AdminClient(server: "http://127.0.0.1:8080", app: app)
/// try await client.logIn(username: "root", password: password)
/// let answer = try await client.send("POST", "/v1/admin/users", json: body)
/// ```
public final class AdminClient: Sendable {
    /// The app a device signs with: its id and secret, as `apps add` printed them.
    public struct App: Sendable {
        public var appID: String
        public var secret: [UInt8]

        public init(appID: String, secret: [UInt8]) {
            self.appID = appID
            self.secret = secret
        }
    }

    /// A server's answer: its status and body.
    public struct Answer: Sendable {
        public var status: Int
        public var body: Data

        /// The body as a JSON object (empty when it is not one).
        public var object: [String: Any] {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        }
    }

    /// A request the server refused or could not be reached: the message says which and what to do.
    public struct Failure: Error, CustomStringConvertible {
        public var status: Int?
        public var description: String
    }

    /// The largest answer read (the admin routes answer lists of accounts, well under this).
    static let answerLimit = 8 << 20

    private let base: String
    private let signer: RequestSigning.Signer
    private let client: HTTPClient
    private let token = LockedToken()

    /// A client of the server at `server` (`http://host:port` or `https://…`, no path).
    /// - Throws: ``Failure`` for a URL that is not http(s) or has a path.
    public init(server: String, app: App) throws {
        var text = server
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false, url.path.isEmpty, url.query == nil
        else {
            throw Failure(
                status: nil,
                description: "'\(server)' is not a server URL (give http://HOST:PORT or https://HOST, without a path)")
        }
        base = text
        signer = RequestSigning.Signer(appID: app.appID, secret: app.secret)
        client = HTTPClient(eventLoopGroupProvider: .singleton)
    }

    /// Logs in as `username` (a session for the requests that follow).
    /// - Throws: ``Failure`` with the server's reason (wrong password, unknown app, throttled …).
    public func logIn(username: String, password: String) async throws {
        let body = try JSONSerialization.data(withJSONObject: ["username": username, "password": password])
        let answer = try await send("POST", "/v1/sessions", body: body, session: false)
        guard answer.status == 201, let value = answer.object["token"] as? String else {
            throw Self.failure(answer, doing: "log in as \(username)")
        }
        token.set(value)
    }

    /// Sends one signed request (with the session, once logged in) and returns the answer, whatever its status.
    public func send(_ method: String, _ path: String, json: [String: Any]) async throws -> Answer {
        try await send(method, path, body: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]))
    }

    /// Sends one signed request with `body` as JSON (none when empty).
    public func send(_ method: String, _ path: String, body: Data = Data(), session: Bool = true) async throws
        -> Answer
    {
        let bytes = [UInt8](body)
        let contentType = bytes.isEmpty ? nil : "application/json"
        var request = HTTPClientRequest(url: base + path)
        request.method = HTTPMethod(rawValue: method)
        for header in signer.headers(
            method: method, pathAndQuery: path, body: bytes, contentType: contentType,
            timestamp: Int64(Date().timeIntervalSince1970), transactionID: UUID().uuidString.lowercased())
        {
            request.headers.add(name: header.name, value: header.value)
        }
        if session, let value = token.get() { request.headers.add(name: "Authorization", value: "Bearer \(value)") }
        if !bytes.isEmpty { request.body = .bytes(ByteBuffer(bytes: bytes)) }
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            let collected = try await response.body.collect(upTo: Self.answerLimit)
            return Answer(status: Int(response.status.code), body: Data(collected.readableBytesView))
        } catch let error as HTTPClientError {
            throw Failure(
                status: nil, description: "cannot reach \(base): \(error) (is `itemaudit serve` running there?)")
        }
    }

    /// Logs out and closes the connections.
    public func close() async {
        if token.get() != nil { _ = try? await send("DELETE", "/v1/sessions/current") }
        try? await client.shutdown()
    }

    /// The failure for an answer that is not what `doing` expected: the server's problem detail and remedy.
    public static func failure(_ answer: Answer, doing: String) -> Failure {
        let object = answer.object
        let detail = object["detail"] as? String ?? "status \(answer.status)"
        let remedy = (object["remedy"] as? String).map { " (\($0))" } ?? ""
        return Failure(status: answer.status, description: "cannot \(doing): \(detail)\(remedy)")
    }
}

/// The session token, set once after login and read by every request.
private final class LockedToken: @unchecked Sendable {
    // @unchecked: `value` is read and written only under `lock`.
    private let lock = NSLock()
    private var value: String?

    func set(_ token: String) { lock.withLock { value = token } }
    func get() -> String? { lock.withLock { value } }
}
