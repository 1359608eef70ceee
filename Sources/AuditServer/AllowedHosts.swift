import Hummingbird

/// The host names the server answers to: a loopback name, the address it listens on, or the
/// authority of a `--public-url`. A browser tricked by DNS rebinding into sending this server a
/// request for the attacker's name is refused, since that name is none of these.
struct AllowedHosts: Sendable {
    /// Authorities allowed exactly (`audit.example.com`, `audit.example.com:8443`), lower-cased.
    let authorities: Set<String>
    /// Host names allowed on any port: loopback, and the listening address when it is specific.
    let hosts: Set<String>

    init(configuration: ServerConfiguration) {
        authorities = Set(configuration.publicURLs.compactMap(ServerConfiguration.authority(ofPublicURL:)))
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        let listening = configuration.host.lowercased()
        if listening != "0.0.0.0", listening != "::", !listening.isEmpty {
            hosts.insert(listening.contains(":") ? "[\(listening)]" : listening)
        }
        self.hosts = hosts
    }

    /// Whether a request naming `authority` (a `Host` header's value) is for this server.
    func allows(_ authority: String) -> Bool {
        let name = authority.lowercased()
        if authorities.contains(name) { return true }
        let host: Substring
        if name.hasPrefix("[") {
            // An IPv6 literal: `[::1]` or `[::1]:8080`.
            guard let close = name.firstIndex(of: "]") else { return false }
            let rest = name[name.index(after: close)...]
            guard rest.isEmpty || Self.isPort(rest.dropFirst()) && rest.first == ":" else { return false }
            host = name[...close]
        } else if let colon = name.lastIndex(of: ":") {
            guard Self.isPort(name[name.index(after: colon)...]) else { return false }
            host = name[..<colon]
        } else {
            host = Substring(name)
        }
        return hosts.contains(String(host)) || host.hasPrefix("127.") && Self.isIPv4(host)
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { $0.count <= 3 && !$0.isEmpty && UInt8($0) != nil }
    }
}

/// Before routing: refuses a request for a host this server is not (see ``AllowedHosts``), and a
/// body whose declared length is over the largest any route takes, without reading it. A body
/// sent without a length is bounded by its route's gate, which reads at most its own limit; a
/// request that matches no route has its body discarded unread.
struct FrontDoorMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let hosts: AllowedHosts
    /// The largest body any route takes.
    let bodyCap: Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // HTTP/1.1 requires Host; a request without one cannot come from a browser's rebinding.
        if let authority = request.head.authority, !hosts.allows(authority) {
            throw Problem(
                .misdirectedRequest, "host-not-served", "this server does not answer for the host in the request",
                remedy: "use the server's own address (the operator lists them with serve --public-url)")
        }
        if let length = request.headers[.contentLength], let bytes = Int(length), bytes > bodyCap {
            throw Problem.bodyTooLarge(limit: bodyCap, route: nil)
        }
        return try await next(request, context)
    }
}
