import AuditServer
import AuditService
import Foundation
import HummingbirdTesting
import NIOCore
import HTTPTypes
import Testing

/// Sessions last a fixed time on the injected clock; failed logins are throttled; disabled users are out.
@Suite("Sessions")
struct SessionTests {
    @Test("a session works until its lifetime has passed on the server clock, then 401 session-expired")
    func expiry() async throws {
        let fixture = try await ServerFixture { ServerConfiguration(sessionLifetime: .seconds(3600), clock: $0) }
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "inspector")
            #expect(try await fixture.send(client, .get, "/v1/me", token: token).status == .ok)
            fixture.clock.advance(microseconds: 3_599_000_000)
            #expect(try await fixture.send(client, .get, "/v1/me", token: token).status == .ok)
            fixture.clock.advance(microseconds: 2_000_000)
            let expired = try await fixture.send(client, .get, "/v1/me", token: token)
            #expect(expired.status == .unauthorized)
            #expect(try ServerFixture.object(expired)["code"] as? String == "session-expired")
        }
    }

    @Test("five failed logins throttle that name from that address: 429 with Retry-After, even for the right password, until it ends")
    func throttle() async throws {
        let fixture = try await ServerFixture { clock in
            var configuration = ServerConfiguration(maxFailedLogins: 5, loginThrottleDuration: .seconds(900), clock: clock)
            // The test client has no peer address ("local"): trusted, so X-Forwarded-For names sources.
            configuration.trustedProxies = ["local"]
            return configuration
        }
        try await fixture.application().test(.router) { client in
            func login(_ password: String, from source: String) async throws -> TestResponse {
                let body = Array(#"{"username":"manager","password":"\#(password)"}"#.utf8)
                var headers = fixture.headers(.post, "/v1/sessions", body: body)
                headers[HTTPField.Name("X-Forwarded-For")!] = source
                return try await client.execute(
                    uri: "/v1/sessions", method: .post, headers: headers, body: ByteBuffer(bytes: body))
            }
            for _ in 0..<4 {
                let response = try await login("not the password", from: "192.0.2.1")
                #expect(response.status == .unauthorized)
                #expect(try ServerFixture.object(response)["code"] as? String == "login-failed")
            }
            let fifth = try await login("not the password", from: "192.0.2.1")
            #expect(fifth.status == .tooManyRequests)
            #expect(fifth.headers[.retryAfter] == "900")
            let right = try await login(ServerFixture.password("manager"), from: "192.0.2.1")
            #expect(right.status == .tooManyRequests)
            #expect(try ServerFixture.object(right)["code"] as? String == "login-throttled")
            // The account itself is not locked: from another address the right password works.
            #expect(try await login(ServerFixture.password("manager"), from: "198.51.100.7").status == .created)
            _ = try await fixture.login(client, "auditor")
            fixture.clock.advance(microseconds: 901_000_000)
            #expect(try await login(ServerFixture.password("manager"), from: "192.0.2.1").status == .created)
        }
    }

    @Test("a disabled user cannot log in and their open session is refused at the next request")
    func disabled() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "steward")
            _ = try await fixture.service.execute(
                identity: .disableUser(UserDisabled(username: "steward", reason: "left")), commandID: "off",
                actor: "admin")
            let open = try await fixture.send(client, .get, "/v1/me", token: token)
            #expect(open.status == .unauthorized)
            #expect(try ServerFixture.object(open)["code"] as? String == "user-disabled")
            let login = try await fixture.send(
                client, .post, "/v1/sessions",
                json: #"{"username":"steward","password":"\#(ServerFixture.password("steward"))"}"#)
            #expect(login.status == .unauthorized)
            // The same answer as a wrong password: a login does not tell that the account exists.
            #expect(try ServerFixture.object(login)["code"] as? String == "login-failed")
            let wrong = try await fixture.send(
                client, .post, "/v1/sessions", json: #"{"username":"steward","password":"wrong password"}"#)
            #expect(String(buffer: wrong.body) == String(buffer: login.body))
        }
    }

    @Test("logging out ends the session; a bad login body is a 400 problem")
    func logoutAndBadBody() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "auditor")
            #expect(try await fixture.send(client, .delete, "/v1/sessions/current", token: token).status == .noContent)
            let after = try await fixture.send(client, .get, "/v1/me", token: token)
            #expect(try ServerFixture.object(after)["code"] as? String == "session-unknown")
            let bad = try await fixture.send(client, .post, "/v1/sessions", json: #"{"username":"x"}"#)
            #expect(bad.status == .badRequest)
            #expect(
                try ServerFixture.object(bad)["detail"] as? String ?? ""
                    == "the body is not a valid Login: missing field 'password'")
        }
    }
}
