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

    @Test(
        "a timestamp at Int64's edges is refused as stale, and the server goes on answering (#38 finding 2)",
        arguments: [Int64.min, Int64.min + 1, Int64.max, -1, 0])
    func timestampAtTheEdges(timestamp: Int64) async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "admin")
            try await expectRefused(
                fixture, client,
                headers: fixture.headers(.post, "/v1/commands", body: Self.body, token: token, timestamp: timestamp),
                code: "signature-stale")
            let after = try await client.execute(
                uri: "/v1/commands", method: .post,
                headers: fixture.headers(.post, "/v1/commands", body: Self.body, token: token),
                body: ByteBuffer(bytes: Self.body))
            #expect(after.status == .ok)
        }
    }

    @Test("a transaction id is remembered until its own timestamp leaves the window (#38 finding 8)")
    func replayWhileItsTimestampIsFresh() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            // The login is the first signed request the guard sees.
            let token = try await fixture.login(client, "admin")
            fixture.clock.advance(microseconds: 299_000_000)
            let ahead = fixture.headers(
                .post, "/v1/commands", body: Self.body, token: token, transactionID: "tx-ahead",
                timestamp: fixture.nowSeconds + 299)
            let first = try await client.execute(
                uri: "/v1/commands", method: .post, headers: ahead, body: ByteBuffer(bytes: Self.body))
            #expect(first.status == .ok)
            // 311 s later its timestamp is 12 s old: still fresh, so the id must still be known.
            fixture.clock.advance(microseconds: 311_000_000)
            try await expectRefused(fixture, client, headers: ahead, code: "transaction-replayed")
        }
    }

    @Test(
        "the signature covers the media type: the same signed body as another Content-Type is refused (#38 finding 12)")
    func mediaTypeIsSigned() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "admin")
            var other = fixture.headers(.post, "/v1/commands", body: Self.body, token: token)
            other[.contentType] = "text/csv"
            try await expectRefused(fixture, client, headers: other, code: "signature-invalid")
            var none = fixture.headers(.post, "/v1/commands", body: Self.body, token: token)
            none[.contentType] = nil
            try await expectRefused(fixture, client, headers: none, code: "signature-invalid")
            // A second Content-Type field is read joined to the first, so it no longer matches.
            var doubled = fixture.headers(.post, "/v1/commands", body: Self.body, token: token)
            doubled.append(HTTPField(name: .contentType, value: "text/csv"))
            try await expectRefused(fixture, client, headers: doubled, code: "signature-invalid")
            // Case, spaces and parameters are not part of the media type.
            var spelled = fixture.headers(.post, "/v1/commands", body: Self.body, token: token)
            spelled[.contentType] = " Application/JSON ; charset=utf-8"
            let response = try await client.execute(
                uri: "/v1/commands", method: .post, headers: spelled, body: ByteBuffer(bytes: Self.body))
            #expect(response.status == .ok)
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

    @Test("the signature helper is the documented HMAC: known vectors, without and with a media type")
    func knownVector() {
        // HMAC-SHA256 of the six lines with a 32-byte key of 0x5A, computed independently with
        // `printf 'GET\n/v1/me\n1772438400\ntx\ne3b0…b855\n' | openssl dgst -sha256 -mac HMAC -macopt hexkey:5a…5a`
        // (no body, no Content-Type: the sixth line is empty).
        let signature = RequestSigning.signature(
            secret: ServerFixture.secret, method: "GET", pathAndQuery: "/v1/me", timestamp: "1772438400",
            transactionID: "tx", bodySHA256: RequestSigning.bodyHash([]), mediaType: "")
        #expect(RequestSigning.bodyHash([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(signature == SignatureTests.expectedVector)
        // `printf 'POST\n/v1/commands\n1772438400\ntx\n<sha256 of {"commands":[]}>\napplication/json' | openssl …`
        let body = Array(#"{"commands":[]}"#.utf8)
        let headers = RequestSigning.headers(
            appID: "app", secret: ServerFixture.secret, method: "POST", pathAndQuery: "/v1/commands", body: body,
            contentType: "Application/JSON; charset=utf-8", timestamp: 1_772_438_400, transactionID: "tx")
        #expect(
            headers.first { $0.name == RequestSigning.signatureHeader }?.value
                == "6daee62886010b37cc64ca482aabed0737d1f1e13007c700dfdc9cef8b80dd89")
        #expect(headers.last?.name == "Content-Type")
        #expect(headers.last?.value == "Application/JSON; charset=utf-8", "the Content-Type is sent as given")
    }

    @Test(
        "the signed media type: lower-cased ASCII, before any parameters, trimmed; empty without one",
        arguments: [
            (nil, ""), ("", ""), ("application/json", "application/json"), (" \tImage/PNG ; q=1", "image/png"),
            ("text/csv; charset=utf-8", "text/csv"), (" ;image/jpeg", ""),
            ("application/json, text/csv", "application/json, text/csv"),
            // Only ASCII changes case: the Kelvin sign stays what it is, never a "k".
            ("text/\u{212A}sv", "text/\u{212A}sv"),
        ] as [(String?, String)])
    func signedMediaType(contentType: String?, mediaType: String) {
        #expect(RequestSigning.mediaType(contentType) == mediaType)
        #expect(Routes.mediaType(contentType) == mediaType, "the routes read the media type that is signed")
    }

    @Test("the server's check: the vector in either case passes; a digit changed, added or dropped fails")
    func serverCheckOfTheVector() {
        let text = RequestSigning.canonicalBytes(
            method: "GET", pathAndQuery: "/v1/me", timestamp: "1772438400", transactionID: "tx", body: [UInt8](),
            contentType: nil)
        #expect(
            text
                == Array(
                    RequestSigning.canonical(
                        method: "GET", pathAndQuery: "/v1/me", timestamp: "1772438400", transactionID: "tx",
                        bodySHA256: RequestSigning.bodyHash([]), mediaType: ""
                    ).utf8))
        #expect(
            RequestSigning.canonicalBytes(
                method: "PUT", pathAndQuery: "/v1/photos/x", timestamp: "1", transactionID: "tx", body: [UInt8](),
                contentType: " Image/JPEG; q=1")
                == Array(
                    RequestSigning.canonical(
                        method: "PUT", pathAndQuery: "/v1/photos/x", timestamp: "1", transactionID: "tx",
                        bodySHA256: RequestSigning.bodyHash([]), mediaType: "image/jpeg"
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

    @Test("a keyed signer signs the canonical text of the one-off helper, from the body or its hash")
    func signerMatchesTheHelper() {
        let signer = RequestSigning.Signer(appID: "app", secret: ServerFixture.secret)
        for (index, body) in [[], Array(#"{"commands":[]}"#.utf8)].enumerated() {
            let contentType = body.isEmpty ? nil : "text/CSV; header=present"
            let once = RequestSigning.signature(
                secret: ServerFixture.secret, method: "POST", pathAndQuery: "/v1/commands?x=\(index)",
                timestamp: "1772438400", transactionID: "tx-\(index)", bodySHA256: RequestSigning.bodyHash(body),
                mediaType: body.isEmpty ? "" : "text/csv")
            let keyed = signer.headers(
                method: "POST", pathAndQuery: "/v1/commands?x=\(index)", body: body, contentType: contentType,
                timestamp: 1_772_438_400, transactionID: "tx-\(index)")
            #expect(
                keyed.map(\.name)
                    == [
                        RequestSigning.appHeader, RequestSigning.transactionHeader, RequestSigning.timestampHeader,
                        RequestSigning.signatureHeader,
                    ] + (contentType == nil ? [] : ["Content-Type"]))
            #expect(keyed[3].value == once)
            #expect(keyed.last?.value == contentType ?? once)
            let hashed = signer.headers(
                method: "POST", pathAndQuery: "/v1/commands?x=\(index)", bodySHA256: RequestSigning.bodyHash(body),
                contentType: contentType, timestamp: 1_772_438_400, transactionID: "tx-\(index)")
            #expect(hashed.map(\.value) == keyed.map(\.value))
        }
        let vector = signer.headers(
            method: "GET", pathAndQuery: "/v1/me", body: [], contentType: nil, timestamp: 1_772_438_400,
            transactionID: "tx")
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

    static let expectedVector = "cd5cb4c31a8008cefacc4a640e92cfa8a51fc7b05fa0b2454e6aa1d7ec75052a"
}
