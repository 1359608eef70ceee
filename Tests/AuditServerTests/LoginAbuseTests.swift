import AuditService
import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import AuditServer

/// Guessing passwords, or flooding the login, costs a stranger and the server a bounded amount,
/// tells nothing about which accounts exist, and locks no one out.
@Suite("Login abuse")
struct LoginAbuseTests {
    @Test("the failure table is bounded and forgets: 10,000 unknown names leave at most its capacity")
    func boundedTable() {
        let throttle = LoginThrottle(maxFailures: 5, duration: .seconds(900), capacity: 100)
        for index in 0..<10_000 {
            throttle.recordFailure(.webForm, username: "guess-\(index)", source: "192.0.2.1", now: Int64(index))
        }
        #expect(throttle.count <= 100)
        for _ in 0..<5 { throttle.recordFailure(.device, username: "anna", source: "a", now: 0) }
        #expect(throttle.retryAfter(.device, username: "anna", source: "a", now: 1) == 900)
        #expect(throttle.retryAfter(.webForm, username: "anna", source: "a", now: 1) == nil, "paths apart")
        #expect(throttle.retryAfter(.device, username: "anna", source: "b", now: 1) == nil, "sources apart")
        #expect(throttle.retryAfter(.device, username: "anna", source: "a", now: 900_000_001) == nil, "it ends")
    }

    @Test("an unknown or disabled name costs one bcrypt check like a known one, and answers the same")
    func unknownNamesCostTheSame() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.service.execute(
            identity: .disableUser(UserDisabled(username: "steward", reason: "left")), commandID: "off", actor: "admin")
        try await fixture.application().test(.router) { client in
            for name in ["manager", "nobody", "steward"] {
                let before = fixture.service.bcryptChecks
                let body = try JSONSerialization.data(withJSONObject: ["username": name, "password": "wrong password"])
                let response = try await fixture.send(
                    client, .post, "/v1/sessions", json: String(decoding: body, as: UTF8.self))
                #expect(fixture.service.bcryptChecks == before + 1, "\(name.prefix(20))")
                #expect(response.status == .unauthorized)
                #expect(try ServerFixture.object(response)["code"] as? String == "login-failed")
            }
        }
    }

    @Test(
        "a name no account can have (too long, a control character) is a plain failed login: never counted, checked or stored",
        arguments: [
            String(repeating: "x", count: 3000), "mallory\n2026-01-01T00:00:00+0000 forged", "anna\u{0}", "anna\u{85}",
        ])
    func invalidNamesNeverCounted(name: String) async throws {
        let fixture = try await ServerFixture { ServerConfiguration(maxFailedLogins: 2, clock: $0) }
        try await fixture.application().test(.router) { client in
            let unknown = try await fixture.send(
                client, .post, "/v1/sessions", json: #"{"username":"nobody","password":"wrong password"}"#)
            let checks = fixture.service.bcryptChecks
            let counted = fixture.server.loginThrottle.count
            var browser = WebBrowser(client)
            for _ in 0..<3 {
                let body = try JSONSerialization.data(withJSONObject: ["username": name, "password": "wrong password"])
                let api = try await fixture.send(
                    client, .post, "/v1/sessions", json: String(decoding: body, as: UTF8.self))
                #expect(api.status == .unauthorized)
                #expect(String(buffer: api.body) == String(buffer: unknown.body), "the same answer as any wrong login")
                let form = try await browser.login(name, password: "wrong password")
                #expect(form.status == .unauthorized)
                #expect(String(buffer: form.body).contains("The user name or password is wrong."))
            }
            #expect(fixture.service.bcryptChecks == checks, "nothing to check: no account has such a name")
            #expect(fixture.server.loginThrottle.count == counted, "nothing counted or kept")
        }
    }

    @Test("password checks run on a bounded pool: past its workers and queue a login is refused at once")
    func boundedPool() async throws {
        let workers = LoginWorkers(workers: 1, queueLimit: 1)
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let held = (0..<2).map { _ in
            Task {
                try await workers.run {
                    started.signal()
                    gate.wait()
                    return true
                }
            }
        }
        started.wait()  // one runs, holding the only worker
        while workers.inUse < 2 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(try await workers.run { true } == nil, "the third is refused while two are admitted")
        gate.signal()
        gate.signal()
        for task in held { #expect(try await task.value == true) }
        #expect(try await workers.run { true } == true)
    }

    @Test("a full pool answers 429 login-busy with Retry-After")
    func busyAnswer() async throws {
        let fixture = try await ServerFixture { clock in
            var configuration = ServerConfiguration(clock: clock)
            configuration.loginWorkers = 1
            configuration.loginQueueLimit = 0
            return configuration
        }
        let gate = DispatchSemaphore(value: 0)
        let holder = Task { try await fixture.server.loginWorkers.run { gate.wait() } }
        while fixture.server.loginWorkers.inUse < 1 { try await Task.sleep(for: .milliseconds(1)) }
        try await fixture.application().test(.router) { client in
            let response = try await fixture.send(
                client, .post, "/v1/sessions", json: #"{"username":"manager","password":"x"}"#)
            #expect(response.status == .tooManyRequests)
            #expect(response.headers[.retryAfter] != nil)
            #expect(try ServerFixture.object(response)["code"] as? String == "login-busy")
        }
        gate.signal()
        _ = try await holder.value
    }

    @Test("the server log never holds a user name tried at login, nor a raw newline from one")
    func noNamesLogged() async throws {
        let fixture = try await ServerFixture()
        var pipe: [Int32] = [0, 0]
        #expect(Foundation.pipe(&pipe) == 0)
        defer { close(pipe[0]) }
        let writeEnd = pipe[1]
        var logger = Logger(label: "itemaudit.serve") { ServerLogHandler(label: $0, descriptor: writeEnd) }
        logger.logLevel = .trace
        let server = ServerState(
            service: fixture.service,
            configuration: ServerConfiguration(maxFailedLogins: 2, clock: fixture.clock), logger: logger)
        try await buildApplication(server).test(.router) { client in
            var browser = WebBrowser(client)
            for name in ["mallory-secret-name", "manager"] {
                for _ in 0..<3 { _ = try await browser.login(name, password: "wrong password\nforged line") }
            }
            _ = try await fixture.send(
                client, .post, "/v1/sessions", json: #"{"username":"mallory-secret-name","password":"x"}"#)
        }
        close(writeEnd)
        let text = String(decoding: FileHandle(fileDescriptor: pipe[0]).readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("logins throttled"), "the throttle is logged, as a keyed tag")
        #expect(!text.contains("mallory"))
        #expect(!text.contains("user=manager"))
        #expect(!text.contains("forged"))
    }
}
