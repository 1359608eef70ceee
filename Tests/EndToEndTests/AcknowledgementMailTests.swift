import Foundation
import Testing

/// `serve --sendmail`: the manufacturer's acknowledgement is queued, not awaited; a failed send is
/// retried and logged without the address; no contact in the datasheet, no mail.
@Suite("acknowledgement mails, with the binary")
struct AcknowledgementMailTests {
    typealias Server = ServeProcessTests.Server

    @Test("a send that fails is retried, the mail arrives, and the log names the reception but never the address")
    func failedSendIsRetried() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("ack-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        for (user, role) in [("boss", "admin"), ("rec", "receiver")] {
            let added = try ItemAuditBinary.run(
                ["users", "add", user, "--role", role, "--data", data.path, "--password-stdin"],
                stdin: Data("a long password\n".utf8))
            #expect(added.status == 0, "\(added.stderr)")
        }
        let created = try ItemAuditBinary.run([
            "apps", "add", "t", "--id", "t", "--format", "json", "--data", data.path,
        ])
        let secret = try #require(
            (try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: String])?["secret"])
        let app = ("t", secret)
        let log = data.deletingLastPathComponent().appendingPathComponent("ack-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try Server(data: data, options: ["--sendmail", try sink.sendmail(failing: 1).path], log: log)
        defer {
            server.process.interrupt()
            server.process.waitUntilExit()
        }
        func session(_ user: String) async throws -> String {
            let reply = try await ServeProcessTests.send(
                port: server.port, "POST", "/v1/sessions",
                body: Data(#"{"username":"\#(user)","password":"a long password"}"#.utf8), app: app)
            return try #require(reply.json["token"] as? String, "\(reply.json)")
        }
        func send(_ lines: [String], _ token: String) async throws {
            let reply = try await ServeProcessTests.send(
                port: server.port, "POST", "/v1/commands", body: InspectorDatasheetTests.commands(lines), token: token,
                app: app)
            let outcomes = reply.json["outcomes"] as? [[String: Any]] ?? []
            #expect(
                outcomes.count == lines.count && outcomes.allSatisfy { $0["status"] as? String == "accepted" },
                "\(reply.json)")
        }
        let (mailed, silent) = (
            InspectorDatasheetTests.gtin("0641000003001"), InspectorDatasheetTests.gtin("0641000003002")
        )
        let address = "orders+samples@kaura.example"
        try await send(
            [
                #"{"commandID":"c","type":"RegisterLocation","locationID":"C1","name":"Centre","kind":2}"#,
                #"{"commandID":"p1","type":"RegisterProduct","gtin":"\#(mailed)","name":"Kaurajuoma","brand":"B","manufacturer":"Kaura Oy","productType":0,"category":"Drinks"}"#,
                #"{"commandID":"d1","type":"ImportDatasheet","gtin":"\#(mailed)","datasheetID":"d1","source":"s","attributes":[{"path":"manufacturer.contactPoint.email","value":"not an address|\#(address)"}]}"#,
                #"{"commandID":"p2","type":"RegisterProduct","gtin":"\#(silent)","name":"Silent","brand":"B","manufacturer":"M","productType":0,"category":"Drinks"}"#,
            ], try await session("boss"))
        let receiver = try await session("rec")
        let before = Date()
        try await send(
            [
                #"{"commandID":"r1","type":"ReceiveProduct","receptionID":"RC-9","gtin":"\#(mailed)","locationID":"C1","storageLocation":"S-1"}"#,
                #"{"commandID":"r2","type":"ReceiveProduct","receptionID":"RC-10","gtin":"\#(silent)","locationID":"C1","storageLocation":"S-2"}"#,
            ], receiver)
        #expect(Date().timeIntervalSince(before) < 5, "the command waited for the mail")
        let mails = try await sink.waitForMessages(1)
        #expect(mails.count == 1, "sendmail ran \(sink.sendmailRuns) times")
        #expect(sink.sendmailRuns == 2, "one failure, one retry")
        let mail = try #require(mails.first)
        #expect(mail.contains("X-Envelope-To: \(address)") && mail.contains("reception RC-9"), "\(mail)")
        #expect(mail.contains("Subject: Sample received: Kaurajuoma (\(mailed)), reception RC-9"), "\(mail)")
        try await Task.sleep(for: .seconds(1))
        let lines = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(lines.contains("acknowledgement mail failed, will retry") && lines.contains("RC-9"), "\(lines)")
        #expect(lines.contains("exited with status 75"), "\(lines)")
        #expect(!lines.contains(address) && !lines.contains("kaura.example"), "the log names the address: \(lines)")
        // The product without a contact got no mail, and no try.
        #expect(sink.messages().count == 1 && sink.sendmailRuns == 2)
    }

    @Test("serve refuses a --sendmail that is not an executable file, before opening anything")
    func badSendmailPath() throws {
        let result = try ItemAuditBinary.run([
            "serve", "--data", "/nonexistent/data", "--sendmail", "/nonexistent/sendmail",
        ])
        #expect(result.status == 64 || result.status == 2, "\(result.status) \(result.stderr)")
        #expect(
            result.stderr.contains("--sendmail '/nonexistent/sendmail' is not an executable file"), "\(result.stderr)")
    }
}
