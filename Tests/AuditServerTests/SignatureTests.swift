import AuditService
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AuditServer

/// Every request but the public ones must be signed: refused with 401 and a reason, before any work.
@Suite("Signed requests")
struct SignatureTests {
    /// A bundle that would append if it got through.
    static let body = Array(
        ServerFixture.bundle([
            #"{"commandID":"sig-1","type":"RegisterLocation","locationID":"W9","name":"W","kind":1}"#
        ]).utf8)

    func expectRefused(
        _ fixture: ServerFixture, _ client: some TestClientProtocol, uri: String = "/v1/commands",
        headers: HTTPFields, body: [UInt8] = SignatureTests.body, code: String
    ) async throws {
        let before = fixture.service.log.lastPosition
        let response = try await client.execute(
            uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: body))
        #expect(response.status == .unauthorized)
        #expect(response.headers[.contentType] == "application/problem+json")
        #expect(try ServerFixture.object(response)["code"] as? String == code)
        #expect(fixture.service.log.lastPosition == before, "nothing may be appended")
    }

    @Test("a correctly signed request from an admin gets through (the control for the cases below)")
    func control() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "admin")
            let response = try await client.execute(
                uri: "/v1/commands", method: .post,
                headers: fixture.headers(.post, "/v1/commands", body: Self.body, token: token),
                body: ByteBuffer(bytes: Self.body))
            #expect(response.status == .ok)
        }
    }

    @Test("missing headers, wrong secret, tampered body and path, stale, replayed, unknown and revoked app")
    func refusals() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "admin")
            let good = fixture.headers(.post, "/v1/commands", body: Self.body, token: token)
            for name in [
                RequestSigning.appHeader, RequestSigning.transactionHeader, RequestSigning.timestampHeader,
                RequestSigning.signatureHeader,
            ] {
                var missing = good
                missing[HTTPField.Name(name)!] = nil
                try await expectRefused(fixture, client, headers: missing, code: "signature-missing")
            }
            try await expectRefused(
                fixture, client,
                headers: fixture.headers(
                    .post, "/v1/commands", body: Self.body, token: token, secret: [UInt8](repeating: 1, count: 32)),
                code: "signature-invalid")
            var tampered = Self.body
            tampered[tampered.count - 3] = UInt8(ascii: "2")
            try await expectRefused(
                fixture, client, headers: fixture.headers(.post, "/v1/commands", body: Self.body, token: token),
                body: tampered, code: "signature-invalid")
            try await expectRefused(
                fixture, client, uri: "/v1/commands?x=1",
                headers: fixture.headers(.post, "/v1/commands", body: Self.body, token: token),
                code: "signature-invalid")
            try await expectRefused(
                fixture, client,
                headers: fixture.headers(
                    .post, "/v1/commands", body: Self.body, token: token, timestamp: fixture.nowSeconds - 301),
                code: "signature-stale")
            try await expectRefused(
                fixture, client,
                headers: fixture.headers(
                    .post, "/v1/commands", body: Self.body, token: token, timestamp: fixture.nowSeconds + 301),
                code: "signature-stale")
            try await expectRefused(
                fixture, client,
                headers: fixture.headers(.post, "/v1/commands", body: Self.body, token: token, appID: "stranger"),
                code: "app-unknown")
            // Replayed: the same transaction id twice; the first gets through.
            let once = fixture.headers(.post, "/v1/commands", body: Self.body, token: token, transactionID: "tx-1")
            let first = try await client.execute(
                uri: "/v1/commands", method: .post, headers: once, body: ByteBuffer(bytes: Self.body))
            #expect(first.status == .ok)
            try await expectRefused(fixture, client, headers: once, code: "transaction-replayed")
            // Revoked.
            _ = try await fixture.service.execute(
                identity: .revokeApp(AppRevoked(appID: ServerFixture.appID, reason: "lost")), commandID: "revoke",
                actor: "admin")
            try await expectRefused(
                fixture, client, headers: fixture.headers(.post, "/v1/commands", body: Self.body, token: token),
                code: "app-revoked")
        }
    }

    @Test("health and the OpenAPI document need no signature; other routes without one are refused")
    func publicRoutes() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/openapi.yaml", method: .get).status == .ok)
            let response = try await client.execute(uri: "/v1/codelists", method: .get)
            #expect(response.status == .unauthorized)
        }
    }

    @Test("the signature helper is the documented HMAC: a known vector")
    func knownVector() {
        // HMAC-SHA256 of the five lines with a 32-byte key of 0x5A, computed independently with
        // `printf 'GET\n/v1/me\n1772438400\ntx\ne3b0…b855' | openssl dgst -sha256 -mac HMAC -macopt hexkey:5a…5a`.
        let signature = RequestSigning.signature(
            secret: ServerFixture.secret, method: "GET", pathAndQuery: "/v1/me", timestamp: "1772438400",
            transactionID: "tx", bodySHA256: RequestSigning.bodyHash([]))
        #expect(RequestSigning.bodyHash([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(signature == SignatureTests.expectedVector)
    }

    @Test("the server's check: the vector in either case passes; a digit changed, added or dropped fails")
    func serverCheckOfTheVector() {
        let text = RequestSigning.canonicalBytes(
            method: "GET", pathAndQuery: "/v1/me", timestamp: "1772438400", transactionID: "tx", body: [UInt8]())
        #expect(
            text
                == Array(
                    RequestSigning.canonical(
                        method: "GET", pathAndQuery: "/v1/me", timestamp: "1772438400", transactionID: "tx",
                        bodySHA256: RequestSigning.bodyHash([])
                    ).utf8))
        var mac = SigningKeys().hmac(appID: "app", secret: ServerFixture.secret)
        mac.update(data: text)
        let code = mac.finalize()
        let vector = SignatureTests.expectedVector
        #expect(RequestSigning.matches(code, hex: vector))
        #expect(RequestSigning.matches(code, hex: vector.uppercased()))
        #expect(!RequestSigning.matches(code, hex: String(vector.dropLast()) + "5"))
        #expect(!RequestSigning.matches(code, hex: vector + "0"))
        #expect(!RequestSigning.matches(code, hex: String(vector.dropLast())))
        #expect(!RequestSigning.matches(code, hex: ""))
    }

    @Test("a keyed signer gives the headers of the one-off helper, signature and all, from the body or its hash")
    func signerMatchesTheHelper() {
        let signer = RequestSigning.Signer(appID: "app", secret: ServerFixture.secret)
        for (index, body) in [[], Array(#"{"commands":[]}"#.utf8)].enumerated() {
            let once = RequestSigning.headers(
                appID: "app", secret: ServerFixture.secret, method: "POST", pathAndQuery: "/v1/commands?x=\(index)",
                body: body, timestamp: 1_772_438_400, transactionID: "tx-\(index)")
            let keyed = signer.headers(
                method: "POST", pathAndQuery: "/v1/commands?x=\(index)", body: body, timestamp: 1_772_438_400,
                transactionID: "tx-\(index)")
            #expect(keyed.map(\.name) == once.map(\.name))
            #expect(keyed.map(\.value) == once.map(\.value))
            let hashed = signer.headers(
                method: "POST", pathAndQuery: "/v1/commands?x=\(index)", bodySHA256: RequestSigning.bodyHash(body),
                timestamp: 1_772_438_400, transactionID: "tx-\(index)")
            #expect(hashed.map(\.value) == once.map(\.value))
        }
        let vector = signer.headers(
            method: "GET", pathAndQuery: "/v1/me", body: [], timestamp: 1_772_438_400, transactionID: "tx")
        #expect(vector.last?.value == SignatureTests.expectedVector)
    }

    @Test("an app's cached key follows its secret: a new secret under the same app id signs differently")
    func cachedKeyFollowsTheSecret() {
        let keys = SigningKeys()
        func code(_ secret: [UInt8]) -> [UInt8] {
            var mac = keys.hmac(appID: "app", secret: secret)
            mac.update(data: Array("GET\n/\n1\ntx\n".utf8))
            return Array(mac.finalize())
        }
        let first = code(ServerFixture.secret)
        let other = code([UInt8](repeating: 7, count: 32))
        #expect(first != other)
        #expect(code(ServerFixture.secret) == first)
        // Used twice, the cached key gives the same answer (its state is copied, not shared).
        #expect(code(ServerFixture.secret) == first)
    }

    static let expectedVector = "7a828e1fa29d2338ff2aa4d74136e9421ab12dfacac5a735a2492bb91c324004"
}
