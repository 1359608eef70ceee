import Foundation
import Testing

@testable import AuditServer

/// Which `Host` names the server answers to (DNS rebinding), and the `--public-url` forms.
@Suite("Allowed hosts")
struct AllowedHostsTests {
    static func hosts(_ host: String = "127.0.0.1", _ urls: [String] = []) -> AllowedHosts {
        var configuration = ServerConfiguration(host: host)
        configuration.publicURLs = urls
        return AllowedHosts(configuration: configuration)
    }

    @Test("loopback names on any port pass; any other name, a bad port or junk is refused")
    func loopback() {
        let hosts = Self.hosts()
        for allowed in ["localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:1", "127.9.9.9:80", "[::1]", "[::1]:8080"] {
            #expect(hosts.allows(allowed), "\(allowed)")
        }
        for refused in [
            "evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.evil.example", "127.0.0.1:x",
            "127.0.0.1:", "[::1]x", "[::2]", "127.0.0.256", "", "localhost:99999999", "0.0.0.0",
        ] {
            #expect(!hosts.allows(refused), "\(refused)")
        }
    }

    @Test("a --public-url allows its authority exactly: the host with its port, the default port left out")
    func publicURLs() {
        let hosts = Self.hosts("127.0.0.1", ["https://Audit.Example.com", "http://10.0.0.5:8443/app/"])
        #expect(hosts.allows("audit.example.com"))
        #expect(hosts.allows("AUDIT.example.com"))
        #expect(!hosts.allows("audit.example.com:8443"))
        #expect(hosts.allows("10.0.0.5:8443"))
        #expect(!hosts.allows("10.0.0.5"))
        #expect(ServerConfiguration.authority(ofPublicURL: "https://a.example:443") == "a.example")
        #expect(ServerConfiguration.authority(ofPublicURL: "http://a.example:80/x") == "a.example")
        #expect(ServerConfiguration.authority(ofPublicURL: "ftp://a.example") == nil)
        #expect(ServerConfiguration.authority(ofPublicURL: "a.example") == nil)
    }

    @Test("the listening address, when specific, is a name the server answers to")
    func listeningAddress() {
        #expect(Self.hosts("192.168.1.20").allows("192.168.1.20:8443"))
        #expect(!Self.hosts("0.0.0.0").allows("0.0.0.0"))
    }

    @Test("listening on every address without --public-url stops the server before it listens")
    func wildcardNeedsPublicURL() async throws {
        let fixture = try await ServerFixture { clock in
            var configuration = ServerConfiguration(host: "0.0.0.0", clock: clock)
            configuration.tls = ("/nonexistent.pem", "/nonexistent.key")
            return configuration
        }
        #expect(throws: ServerSetupError.self) { try buildApplication(fixture.server) }
        do {
            _ = try buildApplication(fixture.server)
        } catch let error as ServerSetupError {
            #expect(error.message.contains("--public-url"))
        }
    }

    @Test("an absolute-form target's authority, userinfo dropped; an origin-form target has none")
    func absoluteForm() {
        #expect(AbsoluteFormHostHandler.authority(ofAbsoluteTarget: "http://evil.example/v1/x") == "evil.example")
        #expect(AbsoluteFormHostHandler.authority(ofAbsoluteTarget: "http://u:p@evil.example:81?q") == "evil.example:81")
        #expect(AbsoluteFormHostHandler.authority(ofAbsoluteTarget: "/v1/x") == nil)
        #expect(AbsoluteFormHostHandler.authority(ofAbsoluteTarget: "/v1/x?u=http://a") == nil)
    }
}
