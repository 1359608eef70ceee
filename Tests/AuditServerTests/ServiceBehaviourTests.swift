import AuditServer
import AuditService
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import AuditServer

/// Running like a service: expiry on its own, body limits, metrics.
@Suite("Service behaviour")
struct ServiceBehaviourTests {
    @Test("the expiry service expires a batch past its validity without anyone sending a command")
    func expiry() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "inspector")
            _ = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([CommandsTests.allocate("e1", quantity: 1)]), token: token)
            await ExpiryService(server: fixture.server).runOnce()
            #expect(await fixture.service.deviceBatch("B1")?.status == 0, "not due yet")
            fixture.clock.advance(microseconds: 5 * 24 * 3600 * 1_000_000)
            await ExpiryService(server: fixture.server).runOnce()
            let batch = await fixture.service.deviceBatch("B1")
            #expect(batch?.status == 7)
            #expect(batch?.expired == true)
        }
    }

    @Test("a Content-Type's media type: before its parameters, trimmed, in lower case")
    func mediaType() {
        #expect(Routes.mediaType(nil) == "")
        #expect(Routes.mediaType("image/jpeg") == "image/jpeg")
        #expect(Routes.mediaType(" \tImage/PNG ; q=1") == "image/png")
        #expect(Routes.mediaType("text/csv; charset=utf-8") == "text/csv")
        #expect(Routes.mediaType(" ;image/jpeg") == "")
        #expect(Routes.datasheetFormat(contentType: "Application/LD+JSON ") == .jsonld)
        #expect(Routes.datasheetFormat(contentType: "application/xml") == .xml)
        #expect(Routes.datasheetFormat(contentType: "text/xml; charset=utf-8") == .xml)
    }

    @Test("a body over the limit is a 413 problem and nothing is appended")
    func bodyLimit() async throws {
        let fixture = try await ServerFixture { ServerConfiguration(maxBodyBytes: 1024, clock: $0) }
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "admin")
            let before = fixture.service.log.lastPosition
            let big = ServerFixture.bundle(
                (0..<40).map {
                    #"{"commandID":"big-\#($0)","type":"RegisterLocation","locationID":"L\#($0)","name":"N","kind":0}"#
                })
            let response = try await fixture.send(client, .post, "/v1/commands", json: big, token: token)
            #expect(response.status == .contentTooLarge)
            #expect(try ServerFixture.object(response)["code"] as? String == "body-too-large")
            #expect(fixture.service.log.lastPosition == before)
        }
    }

    @Test("/metrics counts requests by route and status, and appends")
    func metrics() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "admin")
            _ = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"m1","type":"RegisterLocation","locationID":"M","name":"N","kind":0}"#
                ]),
                token: token)
            let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(text.contains(#"itemaudit_http_requests_total{route="createSession",status="201"} 1"#), "\(text)")
            #expect(text.contains(#"itemaudit_commands_total{status="accepted"} 1"#))
            #expect(text.contains("itemaudit_append_duration_seconds_count"))
        }
    }

    @Test("/metrics: projection lag is the log's end minus what the read models folded; the server folds on its own")
    func projectionLag() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            func gauge(_ name: String) async throws -> String? {
                let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
                return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.map {
                    String($0.dropFirst(name.count + 1))
                }
            }
            /// The gauge once it reads `wanted`, or what it reads after about 5 s.
            func settled(_ name: String, _ wanted: String) async throws -> String? {
                var value = try await gauge(name)
                for _ in 0..<100 where value != wanted {
                    try await Task.sleep(for: .milliseconds(50))
                    value = try await gauge(name)
                }
                return value
            }
            let end = fixture.service.log.lastPosition
            #expect(try await gauge("itemaudit_log_position") == "\(Double(end))")
            // The server opens the projection database at start and folds the log without a
            // report asking, then every append after it: the lag comes down to 0 on its own.
            #expect(try await settled("itemaudit_projection_lag_events", "0.0") == "0.0")
            let token = try await fixture.login(client, "admin")
            _ = try await fixture.send(
                client, .post, "/v1/commands",
                json: ServerFixture.bundle([
                    #"{"commandID":"lag1","type":"RegisterLocation","locationID":"M","name":"N","kind":0}"#
                ]),
                token: token)
            #expect(fixture.service.log.lastPosition > end)
            #expect(try await settled("itemaudit_projection_lag_events", "0.0") == "0.0")
            #expect(try await fixture.send(client, .get, "/v1/coverage", token: token).status == .ok)
        }
    }
}
