import AuditServer
import AuditService
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// HTTPS with `--tls-cert` and `--tls-key`: a self-signed certificate made for the test by openssl
/// (tools/setup installs it) in a temporary directory; no key is committed.
@Suite("HTTPS")
struct TLSTests {
    /// A fresh self-signed certificate and key for localhost, as PEM files.
    static func selfSigned(in directory: URL) throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError("openssl could not make a test certificate (run tools/setup to install openssl)")
        }
        return (certificate, key)
    }

    @Test("with a certificate and key the server answers over TLS: health, a signed login, a read")
    func servesHTTPS() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tls = try Self.selfSigned(in: directory)
        let fixture = try await ServerFixture { ServerConfiguration(port: 0, tls: tls, clock: $0) }
        try await fixture.application().test(.ahc(.https)) { client in
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            let token = try await fixture.login(client, "inspector")
            let locations = try await fixture.send(client, .get, "/v1/locations", token: token)
            #expect(locations.status == .ok)
            #expect(String(buffer: locations.body).contains(ServerFixture.location))
        }
    }

    @Test("a key file that is not a PEM key stops the server before it listens, naming the flags")
    func refusesABadKey() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tls = try Self.selfSigned(in: directory)
        let notAKey = directory.appendingPathComponent("not-a-key.pem")
        try Data("not a key\n".utf8).write(to: notAKey)
        let fixture = try await ServerFixture {
            ServerConfiguration(port: 0, tls: (tls.certificate, notAKey.path), clock: $0)
        }
        #expect {
            _ = try fixture.application()
        } throws: { error in
            (error as? ServerSetupError)?.message.contains("--tls-key") == true
        }
    }
}
