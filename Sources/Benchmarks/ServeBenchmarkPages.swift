import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The pages phase of `bench serve`: the manager logs in through the login form (cookie and CSRF
/// token, as a browser does), then as many clients as devices fetch the dashboard as fast as it
/// is answered, like the read phase fetches batches.
enum BenchServePages {
    static let manager = "bench-manager"

    /// Dashboards answered (200) per second.
    static func run(client: HTTPClient, baseURL: String, clients: Int, seconds: Int) async throws -> Double {
        let cookie = try await login(baseURL: baseURL)
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    var count = 0
                    while ContinuousClock.now < deadline {
                        let (status, _, _) = try await get(client, baseURL + "/", cookie: cookie)
                        if status == 200 { count += 1 }
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = ContinuousClock.now - start
        return Double(total) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The session cookie (`name=value`) after logging in through the form (with a client of its own
    /// that does not follow the login's redirect, whose answer sets the cookie).
    static func login(baseURL: String) async throws -> String {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let cookie = try await login(client: client, baseURL: baseURL)
            try await client.shutdown()
            return cookie
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    static func login(client: HTTPClient, baseURL: String) async throws -> String {
        let (_, formHeaders, form) = try await get(client, baseURL + "/login", cookie: nil)
        let html = String(buffer: form)
        guard let field = html.range(of: #"name="csrf" value="[0-9a-f]{64}""#, options: .regularExpression),
            let loginCookie = cookies(formHeaders).first(where: { $0.hasPrefix("itemaudit_login=") })
        else { throw ServeBenchmark.Failure(description: "the login form has no CSRF token or cookie") }
        let token = String(html[field].dropFirst(#"name="csrf" value=""#.count).dropLast())
        var request = HTTPClientRequest(url: baseURL + "/login")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Cookie", value: loginCookie)
        let password = BenchServeSetup.password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        request.body = .bytes(ByteBuffer(string: "csrf=\(token)&username=\(manager)&password=\(password)"))
        let response = try await client.execute(request, timeout: .seconds(60))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .seeOther,
            let session = cookies(response.headers).first(where: { $0.hasPrefix("itemaudit_session=") })
        else {
            throw ServeBenchmark.Failure(description: "the manager's form login answered \(response.status)")
        }
        return session
    }

    /// The `name=value` part of each Set-Cookie header.
    static func cookies(_ headers: HTTPHeaders) -> [String] {
        headers["Set-Cookie"].compactMap { $0.split(separator: ";").first.map(String.init) }
    }

    static func get(_ client: HTTPClient, _ url: String, cookie: String?) async throws
        -> (status: Int, headers: HTTPHeaders, body: ByteBuffer)
    {
        var request = HTTPClientRequest(url: url)
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        let response = try await client.execute(request, timeout: .seconds(60))
        return (Int(response.status.code), response.headers, try await response.body.collect(upTo: 16 << 20))
    }
}
