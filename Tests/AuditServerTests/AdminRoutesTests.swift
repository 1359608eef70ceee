import AuditService
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import AuditServer

/// Accounts and device apps managed while the server holds the log (`/v1/admin/…`, admin only):
/// the change takes effect at the next request, and no password, hash or secret is answered
/// (but a new app's secret, once) or logged.
@Suite("Admin routes")
struct AdminRoutesTests {
    @Test("an admin adds an inspector who also manages: they log in, read coverage and hold both roles")
    func addUserWithSeveralRoles() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let admin = try await fixture.login(client, "admin")
            let added = try await fixture.send(
                client, .post, "/v1/admin/users",
                json:
                    #"{"username":"lead","name":"Lead","roles":["manager","inspector"],"password":"lead password 1","commandID":"add-lead"}"#,
                token: admin)
            #expect(added.status == .created, "\(String(buffer: added.body))")
            let user = try #require(try ServerFixture.object(added)["user"] as? [String: Any])
            #expect(user["roles"] as? [String] == ["inspector", "manager"])
            #expect(user["role"] as? String == "manager")
            // The same command id again appends nothing.
            let again = try await fixture.send(
                client, .post, "/v1/admin/users",
                json:
                    #"{"username":"lead","roles":["inspector","manager"],"password":"lead password 1","commandID":"add-lead"}"#,
                token: admin)
            #expect(try ServerFixture.object(again)["status"] as? String == "duplicate")
            let lead = try await fixture.login(client, "lead", password: "lead password 1")
            let me = try ServerFixture.object(try await fixture.send(client, .get, "/v1/me", token: lead))
            #expect(me["roles"] as? [String] == ["inspector", "manager"])
            #expect(try await fixture.send(client, .get, "/v1/coverage", token: lead).status == .ok)
            let inspector = try await fixture.login(client, "inspector")
            #expect(try await fixture.send(client, .get, "/v1/coverage", token: inspector).status == .forbidden)
            // The domain knows the lead as an inspector: batches may be allocated to them.
            #expect(await fixture.service.state.inspectors["lead"]?.role == .inspector)
        }
    }

    @Test("roles, password and disabling take effect at the next request; refusals name what to fix")
    func changesTakeEffect() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let admin = try await fixture.login(client, "admin")
            let inspector = try await fixture.login(client, "inspector")
            #expect(try await fixture.send(client, .get, "/v1/coverage", token: inspector).status == .forbidden)
            let roles = try await fixture.send(
                client, .put, "/v1/admin/users/inspector/roles", json: #"{"roles":["inspector","manager"]}"#,
                token: admin)
            #expect(roles.status == .ok, "\(String(buffer: roles.body))")
            #expect(try await fixture.send(client, .get, "/v1/coverage", token: inspector).status == .ok)
            let unchanged = try await fixture.send(
                client, .put, "/v1/admin/users/inspector/roles", json: #"{"roles":["manager","inspector"]}"#,
                token: admin)
            #expect(unchanged.status == .conflict)
            let badRole = try await fixture.send(
                client, .put, "/v1/admin/users/inspector/roles", json: #"{"roles":["boss"]}"#, token: admin)
            #expect(badRole.status == .badRequest)
            #expect(String(buffer: badRole.body).contains("unknown role 'boss'"))
            let unknown = try await fixture.send(
                client, .post, "/v1/admin/users/nobody/disable", json: "{}", token: admin)
            #expect(unknown.status == .notFound)
            let short = try await fixture.send(
                client, .put, "/v1/admin/users/receiver/password", json: #"{"password":"short"}"#, token: admin)
            #expect(short.status == .badRequest)
            let password = try await fixture.send(
                client, .put, "/v1/admin/users/receiver/password", json: #"{"password":"a new long password"}"#,
                token: admin)
            #expect(password.status == .ok)
            await #expect(throws: FixtureError.self) { try await fixture.login(client, "receiver") }
            _ = try await fixture.login(client, "receiver", password: "a new long password")
            let disabled = try await fixture.send(
                client, .post, "/v1/admin/users/inspector/disable", json: #"{"reason":"left"}"#, token: admin)
            #expect(disabled.status == .ok)
            #expect(try await fixture.send(client, .get, "/v1/me", token: inspector).status == .unauthorized)
        }
    }

    @Test("apps: the secret is answered once on creation, never listed; a revoked app's requests are refused")
    func apps() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let admin = try await fixture.login(client, "admin")
            let created = try await fixture.send(
                client, .post, "/v1/admin/apps", json: #"{"name":"Anna's phone","appID":"phone-1","commandID":"c1"}"#,
                token: admin)
            #expect(created.status == .created)
            let secret = try #require(try ServerFixture.object(created)["secret"] as? String)
            #expect(secret.count == 64)
            let resent = try await fixture.send(
                client, .post, "/v1/admin/apps", json: #"{"name":"Anna's phone","appID":"phone-1","commandID":"c1"}"#,
                token: admin)
            #expect(resent.status == .conflict)
            #expect(!String(buffer: resent.body).contains(secret))
            let list = try await fixture.send(client, .get, "/v1/admin/apps", token: admin)
            #expect(list.status == .ok)
            #expect(!String(buffer: list.body).contains(secret))
            #expect(!String(buffer: list.body).lowercased().contains("secret"))
            // The new app signs a login.
            let bytes = try #require(RequestSigning.secret(hex: secret))
            let body = Array(#"{"username":"manager","password":"password-manager"}"#.utf8)
            let login = try await client.execute(
                uri: "/v1/sessions", method: .post,
                headers: fixture.headers(.post, "/v1/sessions", body: body, secret: bytes, appID: "phone-1"),
                body: ByteBuffer(bytes: body))
            #expect(login.status == .created)
            let revoked = try await fixture.send(
                client, .post, "/v1/admin/apps/phone-1/revoke", json: #"{"reason":"lost"}"#, token: admin)
            #expect(revoked.status == .ok)
            let refused = try await client.execute(
                uri: "/v1/sessions", method: .post,
                headers: fixture.headers(.post, "/v1/sessions", body: body, secret: bytes, appID: "phone-1"),
                body: ByteBuffer(bytes: body))
            #expect(refused.status == .unauthorized)
        }
    }

    @Test("no answer or log line holds a password or its hash; only admins reach the routes")
    func nothingSecretAnsweredOrLogged() async throws {
        let fixture = try await ServerFixture()
        var pipe: [Int32] = [0, 0]
        #expect(Foundation.pipe(&pipe) == 0)
        defer { close(pipe[0]) }
        let writeEnd = pipe[1]
        var logger = Logger(label: "itemaudit.serve") { ServerLogHandler(label: $0, descriptor: writeEnd) }
        logger.logLevel = .trace
        let server = ServerState(
            service: fixture.service, configuration: ServerConfiguration(clock: fixture.clock), logger: logger)
        let answers = try await buildApplication(server).test(.router) { client in
            var answers = ""
            let admin = try await fixture.login(client, "admin")
            let manager = try await fixture.login(client, "manager")
            for (method, uri, body) in [
                (
                    HTTPRequest.Method.post, "/v1/admin/users",
                    #"{"username":"zed","roles":["auditor"],"password":"zed-very-secret-pw"}"#
                ),
                (.put, "/v1/admin/users/zed/password", #"{"password":"zed-other-secret-pw"}"#),
                (.get, "/v1/admin/users", ""),
            ] {
                let refused = try await fixture.send(client, method, uri, json: body, token: manager)
                #expect(refused.status == .forbidden, "\(uri)")
                let answer = try await fixture.send(client, method, uri, json: body, token: admin)
                #expect(answer.status.code < 300, "\(uri): \(String(buffer: answer.body))")
                answers += String(buffer: answer.body)
            }
            let tooLarge = try await fixture.send(
                client, .post, "/v1/admin/users",
                json: #"{"username":"big","roles":["auditor"],"password":""# + String(repeating: "x", count: 5000)
                    + #""}"#, token: admin)
            #expect(tooLarge.status == .contentTooLarge)
            return answers
        }
        close(writeEnd)
        let logged = String(decoding: FileHandle(fileDescriptor: pipe[0]).readDataToEndOfFile(), as: UTF8.self)
        #expect(logged.contains("route=addUser status=201"), "the requests are logged, by route name")
        for text in [answers, logged] {
            #expect(!text.contains("zed-very-secret-pw"))
            #expect(!text.contains("zed-other-secret-pw"))
            #expect(!text.contains("$2"))
            #expect(!text.lowercased().contains("passwordhash"))
        }
        #expect(answers.contains(#""zed""#))
    }
}
