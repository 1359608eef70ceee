import AuditService
import Dispatch
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import AuditServer

/// Datasheet checks are heavy: they run on the check workers (never an event loop), a full pool
/// refuses with 503, and answers stay bounded however large the upload (the CSV has everything).
@Suite("Datasheet checks bounded and off the event loops")
struct DatasheetCheckBoundsTests {
    /// `count` JSON Lines datasheets; nine in ten have a wrong GTIN check digit (and so findings).
    static func body(_ count: Int) -> String {
        (0..<count).map { index in
            DatasheetRoutesTests.badGTIN.replacingOccurrences(
                of: "\"6412345100072\"", with: "\"64123\(String(format: "%07d", index))9\"")
        }.joined(separator: "\n") + "\n"
    }

    /// Waits (yielding) until `condition` holds; false if it never does within many rounds.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<4000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test("a check waits on the check workers while /health answers; a full pool answers 503 with Retry-After")
    func checksRunOnTheWorkers() async throws {
        let fixture = try await ServerFixture()
        let workers = fixture.server.checkWorkers
        #expect(workers.capacity == 3, "one worker and two waiting by default")
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "manager")
            // Hold the only worker with a latch.
            let latch = DispatchSemaphore(value: 0)
            let holder = Task { try await workers.run { latch.wait() } }
            #expect(try await Self.eventually { workers.pending == 1 })
            let waiting = (0..<2).map { _ in
                Task {
                    try await DatasheetRoutesTests.upload(
                        fixture, client, "/v1/datasheets/check", DatasheetRoutesTests.good,
                        contentType: "application/ld+json", token: token)
                }
            }
            // Both uploads wait for the worker: the check runs there, not where the request arrived.
            #expect(try await Self.eventually { workers.pending == 3 }, "pending: \(workers.pending)")
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
            let refused = try await DatasheetRoutesTests.upload(
                fixture, client, "/v1/datasheets/check", DatasheetRoutesTests.good,
                contentType: "application/ld+json", token: token)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] != nil)
            #expect(try ServerFixture.object(refused)["code"] as? String == "checks-busy")
            latch.signal()
            try await holder.value
            for task in waiting { #expect(try await task.value.status == .ok) }
            #expect(workers.pending == 0)
        }
    }

    @Test("a large upload's JSON answer has the totals and the first findings only; ?limit= chooses how many")
    func answerIsBounded() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "manager")
            let body = Self.body(600)
            let response = try await DatasheetRoutesTests.upload(
                fixture, client, "/v1/datasheets/check", body, contentType: "application/x-ndjson", token: token)
            #expect(response.status == .ok)
            let object = try ServerFixture.object(response)
            let findings = try #require(object["findings"] as? [[String: Any]])
            #expect(findings.count == 100, "the default limit")
            let total = try #require(object["findingCount"] as? Int)
            #expect(total >= 500, "most datasheets have a finding")
            #expect(object["truncated"] as? Bool == true)
            #expect((object["summary"] as? [String: Any])?["datasheets"] as? Int == 600)
            #expect(object["reports"] == nil, "no per-datasheet reports: the answer would grow with the upload")
            #expect(response.body.readableBytes < 100_000, "\(response.body.readableBytes) bytes")
            #expect(findings.first?["gtin"] as? String == "6412300000009")
            #expect(findings.first?["rule"] as? String != nil)
            let small = try await DatasheetRoutesTests.upload(
                fixture, client, "/v1/datasheets/check?limit=3", body, contentType: "application/x-ndjson",
                token: token)
            #expect((try ServerFixture.object(small)["findings"] as? [Any])?.count == 3)
            for bad in ["0", "1001", "x"] {
                let refused = try await DatasheetRoutesTests.upload(
                    fixture, client, "/v1/datasheets/check?limit=\(bad)", body, contentType: "application/x-ndjson",
                    token: token)
                #expect(refused.status == .badRequest, "limit=\(bad)")
                #expect(String(buffer: refused.body).contains("limit"))
            }
        }
    }

    @Test("?format=csv answers every finding of the same upload, one row each, formulas guarded")
    func csvHasEveryFinding() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "manager")
            // A product name a spreadsheet would run as a formula, in one of the datasheets.
            let formula = DatasheetRoutesTests.badGTIN.replacingOccurrences(
                of: "\"6412345100072\"", with: "\"=HYPERLINK(1)\"")
            let body = Self.body(600) + formula + "\n"
            let json = try await DatasheetRoutesTests.upload(
                fixture, client, "/v1/datasheets/check", body, contentType: "application/x-ndjson", token: token)
            let total = try #require(try ServerFixture.object(json)["findingCount"] as? Int)
            let csv = try await DatasheetRoutesTests.upload(
                fixture, client, "/v1/datasheets/check?format=csv", body, contentType: "application/x-ndjson",
                token: token)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            let lines = String(buffer: csv.body).split(separator: "\r\n", omittingEmptySubsequences: true)
            #expect(
                lines.first == "gtin,datasheetID,source,rule,severity,attribute,observed,expected,message,reference")
            #expect(lines.count == total + 1, "a header and one row per finding")
            #expect(lines.contains { $0.hasPrefix("'=HYPERLINK(1),") })
            #expect(!lines.contains { $0.hasPrefix("=") })
        }
    }

    @Test("an upload over the datasheet limit is 413 naming the limit, on the API and the web page")
    func overTheLimit() async throws {
        let fixture = try await ServerFixture()
        let limit = fixture.server.configuration.maxDatasheetBytes
        let body = String(
            repeating: DatasheetRoutesTests.good + "\n", count: limit / DatasheetRoutesTests.good.utf8.count + 1)
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "manager")
            let api = try await DatasheetRoutesTests.upload(
                fixture, client, "/v1/datasheets/check", body, contentType: "application/x-ndjson", token: token)
            #expect(api.status == .contentTooLarge)
            #expect(String(buffer: api.body).contains(String(limit)), "names the limit")
            var steward = WebBrowser(client)
            try await steward.loggedIn("steward")
            let web = try await WebDatasheetCheckTests.upload(&steward, body)
            #expect(web.status == .contentTooLarge)
            #expect(String(buffer: web.body).contains("\(limit >> 10) KiB"), "names the limit")
        }
    }
}
