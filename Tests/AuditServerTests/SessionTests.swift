import AuditServer
import AuditService
import Foundation
import HummingbirdTesting
import Testing

/// Sessions last a fixed time on the injected clock; failed logins lock; disabled users are out.
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

    @Test("five failed logins lock the account, even for the right password, until the lock ends")
    func lockout() async throws {
        let fixture = try await ServerFixture {
            ServerConfiguration(maxFailedLogins: 5, lockoutDuration: .seconds(900), clock: $0)
        }
        try await fixture.application().test(.router) { client in
            let wrong = #"{"username":"manager","password":"not the password"}"#
            for _ in 0..<4 {
                let response = try await fixture.send(client, .post, "/v1/sessions", json: wrong)
                #expect(response.status == .unauthorized)
                #expect(try ServerFixture.object(response)["code"] as? String == "login-failed")
            }
            let fifth = try await fixture.send(client, .post, "/v1/sessions", json: wrong)
            #expect(fifth.status == .tooManyRequests)
            let right = try await fixture.send(
                client, .post, "/v1/sessions",
                json: #"{"username":"manager","password":"\#(ServerFixture.password("manager"))"}"#)
            #expect(right.status == .tooManyRequests)
            #expect(try ServerFixture.object(right)["code"] as? String == "account-locked")
            // Another account is not affected.
            _ = try await fixture.login(client, "auditor")
            fixture.clock.advance(microseconds: 901_000_000)
            _ = try await fixture.login(client, "manager")
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
            #expect(try ServerFixture.object(login)["code"] as? String == "user-disabled")
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
