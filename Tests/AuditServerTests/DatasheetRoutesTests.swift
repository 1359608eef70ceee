import AuditServer
import AuditService
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// The steward's API: the rules list and datasheet uploads (checked, optionally recorded).
@Suite("Rules and datasheet uploads")
struct DatasheetRoutesTests {
    static let good =
        #"{"gs1:gtin":"6412345100071","gs1:productName":"Ground coffee","gs1:regulatedProductName":"Roasted ground coffee","gs1:ingredientStatement":"coffee","gs1:annexVExemptionCode":"COFFEE","gs1:netContent":{"value":500,"unitCode":"GRM"},"gs1:bestBeforeDate":"2027-01-31","gs1:manufacturer":{"gs1:organizationName":"Paahtimo Oy","gs1:address":{"gs1:addressLocality":"Helsinki"}}}"#
    /// The same product with a wrong GTIN check digit: the identification rules fail.
    static let badGTIN = good.replacingOccurrences(of: "6412345100071", with: "6412345100072")
    static let csv =
        "gtin,productName,regulatedProductName,ingredientStatement,annexVExemptionCode,netContent,bestBeforeDate,"
        + "manufacturer.organizationName,manufacturer.address.addressLocality\n"
        + "6412345100071,Ground coffee,Roasted ground coffee,coffee,COFFEE,500 GRM,2027-01-31,Paahtimo Oy,Helsinki\n"

    /// Sends `body` signed, with its content type.
    static func upload(
        _ fixture: ServerFixture, _ client: some TestClientProtocol, _ uri: String, _ body: String,
        contentType: String, token: String
    ) async throws -> TestResponse {
        let bytes = Array(body.utf8)
        return try await client.execute(
            uri: uri, method: .post,
            headers: fixture.headers(.post, uri, body: bytes, token: token, contentType: contentType),
            body: ByteBuffer(bytes: bytes))
    }

    @Test("GET /v1/rules lists every built-in rule with severity, set, message and reference; ?set= filters")
    func rulesList() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "inspector")
            let all = try await fixture.send(client, .get, "/v1/rules", token: token)
            #expect(all.status == .ok)
            let rules = try #require(try ServerFixture.object(all)["rules"] as? [[String: Any]])
            #expect(rules.count == (try RuleBook.engine(subject: nil)).rules.count)
            let first = try #require(rules.first)
            for field in ["id", "set", "severity", "applies", "title", "message", "reference"] {
                #expect((first[field] as? String)?.isEmpty == false, "\(field) in \(first)")
            }
            let allergens = try await fixture.send(client, .get, "/v1/rules?set=allergens", token: token)
            let some = try #require(try ServerFixture.object(allergens)["rules"] as? [[String: Any]])
            #expect(!some.isEmpty && some.count < rules.count)
            #expect(some.allSatisfy { $0["set"] as? String == "allergens" })
            let unknown = try await fixture.send(client, .get, "/v1/rules?set=nope", token: token)
            #expect(unknown.status == .badRequest)
            #expect(String(buffer: unknown.body).contains("allergens"), "the remedy lists the sets")
        }
    }

    @Test("JSON Lines, JSON-LD and CSV bodies are checked by content type; nothing is appended")
    func checksEachFormat() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "manager")
            let before = fixture.service.log.lastPosition
            let bodies = [
                ("application/x-ndjson", Self.good + "\n" + Self.badGTIN + "\n", 2),
                ("application/ld+json", Self.good, 1), ("text/csv; charset=utf-8", Self.csv, 1),
            ]
            for (type, body, count) in bodies {
                let response = try await Self.upload(
                    fixture, client, "/v1/datasheets/check", body, contentType: type, token: token)
                #expect(response.status == .ok, "\(type): \(String(buffer: response.body))")
                let object = try ServerFixture.object(response)
                #expect((object["summary"] as? [String: Any])?["datasheets"] as? Int == count, "\(type)")
                #expect(object["findings"] is [Any] && object["findingCount"] is Int && object["truncated"] is Bool)
                #expect(object["recorded"] == nil)
            }
            let mixed = try await Self.upload(
                fixture, client, "/v1/datasheets/check", Self.good + "\n" + Self.badGTIN + "\n",
                contentType: "application/x-ndjson", token: token)
            let findings = try #require(try ServerFixture.object(mixed)["findings"] as? [[String: Any]])
            #expect(!findings.isEmpty, "the datasheet with a bad check digit has findings")
            #expect(findings.allSatisfy { $0["gtin"] as? String == "6412345100072" }, "and the good one none")
            #expect(fixture.service.log.lastPosition == before)
        }
    }

    @Test("an unreadable record refuses the upload with a problem naming its line; nothing is recorded")
    func badInput() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let token = try await fixture.login(client, "steward")
            let before = fixture.service.log.lastPosition
            let body = Self.good + "\n" + String(Self.good.prefix(40)) + "\n"
            let response = try await Self.upload(
                fixture, client, "/v1/datasheets/check?record=true", body, contentType: "application/x-ndjson",
                token: token)
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/problem+json")
            let problem = try ServerFixture.object(response)
            #expect(problem["code"] as? String == "invalid-datasheet")
            #expect((problem["detail"] as? String)?.contains("line 2") == true, "\(problem)")
            #expect((problem["issues"] as? [[String: Any]])?.first?["line"] as? Int == 2)
            #expect(fixture.service.log.lastPosition == before)
            let empty = try await Self.upload(
                fixture, client, "/v1/datasheets/check", "\n", contentType: "application/x-ndjson", token: token)
            #expect(empty.status == .badRequest)
            // XML is GDSN CIN (#43): a document with no trade item holds no datasheets, like an empty body.
            let xml = try await Self.upload(
                fixture, client, "/v1/datasheets/check", "<a/>", contentType: "application/xml", token: token)
            #expect(xml.status == .badRequest)
            let cin = try await Self.upload(
                fixture, client, "/v1/datasheets/check",
                "<m><catalogueItem><tradeItem><gtin>06410000000018</gtin></tradeItem></catalogueItem></m>",
                contentType: "text/xml", token: token)
            #expect(cin.status == .ok)
            let doctype = try await Self.upload(
                fixture, client, "/v1/datasheets/check", "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY e \"x\">]><m>&e;</m>",
                contentType: "application/xml", token: token)
            #expect(doctype.status == .badRequest)
            let pdf = try await Self.upload(
                fixture, client, "/v1/datasheets/check", "%PDF", contentType: "application/pdf", token: token)
            #expect(pdf.status == .unsupportedMediaType)
            let sets = try await Self.upload(
                fixture, client, "/v1/datasheets/check?rules=nope", Self.good, contentType: "application/ld+json",
                token: token)
            #expect(sets.status == .badRequest)
            #expect(fixture.service.log.lastPosition == before)
        }
    }

    @Test("?record=true: a steward records datasheets and findings once; a manager may only check")
    func recording() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let manager = try await fixture.login(client, "manager")
            let before = fixture.service.log.lastPosition
            let refused = try await Self.upload(
                fixture, client, "/v1/datasheets/check?record=true", Self.good, contentType: "application/ld+json",
                token: manager)
            #expect(refused.status == .forbidden)
            #expect(fixture.service.log.lastPosition == before)
            let steward = try await fixture.login(client, "steward")
            let first = try await Self.upload(
                fixture, client, "/v1/datasheets/check?record=true", Self.good, contentType: "application/ld+json",
                token: steward)
            #expect(first.status == .ok, "\(String(buffer: first.body))")
            let recorded = try #require(try ServerFixture.object(first)["recorded"] as? [[String: Any]])
            #expect(recorded.first?["status"] as? String == "recorded")
            let after = fixture.service.log.lastPosition
            #expect(after > before)
            let again = try await Self.upload(
                fixture, client, "/v1/datasheets/check?record=true", Self.good, contentType: "application/ld+json",
                token: steward)
            let repeated = try #require(try ServerFixture.object(again)["recorded"] as? [[String: Any]])
            #expect(repeated.first?["status"] as? String == "already-recorded")
            #expect(fixture.service.log.lastPosition == after)
            // The product was registered from its datasheet.
            let state = await fixture.service.state
            #expect(state.products["06412345100071"]?.datasheetID != nil)
        }
    }
}
