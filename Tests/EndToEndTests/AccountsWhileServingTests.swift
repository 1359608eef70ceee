import Foundation
import Testing

/// Accounts managed while `itemaudit serve` holds the log (#41): `users add --server` goes through
/// the admin routes, the user it adds logs in at once, and a user holding the inspector and
/// manager roles inspects their own task and reads coverage. The built binary, a real socket.
@Suite("Accounts while serving (binary)")
struct AccountsWhileServingTests {
    static func gtin(_ i: Int) -> String {
        let body = "0641234500" + String(format: "%03d", 100 + i)
        let digits = body.compactMap { $0.wholeNumberValue }
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() { sum += digit * (offset.isMultiple(of: 2) ? 3 : 1) }
        return body + String((10 - sum % 10) % 10)
    }

    @Test("users add --server while serve runs: the user logs in; an inspector who manages inspects and reads coverage")
    func addWhileServing() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let boss = try ItemAuditBinary.run(
            ["users", "add", "boss", "--role", "admin", "--data", data.path, "--password-stdin"],
            stdin: Data("boss long password\n".utf8))
        #expect(boss.status == 0, "\(boss.stderr)")
        let created = try ItemAuditBinary.run([
            "apps", "add", "office", "--id", "office", "--format", "json", "--data", data.path,
        ])
        let secret = try #require(
            (try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: String])?["secret"])
        let app = ("office", secret)

        let server = try ServeProcessTests.Server(data: data)
        defer {
            server.process.terminate()
            server.process.waitUntilExit()
        }
        let url = "http://127.0.0.1:\(server.port)"
        let admin = [
            "ITEMAUDIT_USER": "boss", "ITEMAUDIT_PASSWORD": "boss long password", "ITEMAUDIT_APP": "office",
            "ITEMAUDIT_SECRET": secret,
        ]
        // Without --server the CLI cannot open the log the server holds, and says so.
        let offline = try ItemAuditBinary.run(
            ["users", "add", "lead", "--role", "inspector", "--data", data.path, "--password-stdin"],
            stdin: Data("lead long password\n".utf8))
        #expect(offline.status != 0)

        let added = try ItemAuditBinary.run(
            ["users", "add", "lead", "--role", "inspector", "--role", "manager", "--server", url, "--password-stdin"],
            stdin: Data("lead long password\n".utf8), environment: admin)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("added user lead (inspector, manager)"), "\(added.stdout)")
        #expect(!added.stdout.contains("lead long password") && !added.stderr.contains("boss long password"))
        let plain = try ItemAuditBinary.run(
            ["users", "add", "ina", "--role", "inspector", "--server", url, "--password-stdin"],
            stdin: Data("ina long password\n".utf8), environment: admin)
        #expect(plain.status == 0, "\(plain.stderr)")
        // A wrong admin password is refused with the server's reason, exit 2.
        var wrong = admin
        wrong["ITEMAUDIT_PASSWORD"] = "not the password"
        let refused = try ItemAuditBinary.run(["users", "list", "--server", url], environment: wrong)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("wrong"), "\(refused.stderr)")
        let listed = try ItemAuditBinary.run(
            ["users", "list", "--server", url, "--format", "json"], environment: admin)
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first { $0["username"] as? String == "lead" }?["roles"] as? [String] == ["inspector", "manager"])

        // The new user logs in at once, through the same server.
        let login = try await ServeProcessTests.send(
            port: server.port, "POST", "/v1/sessions",
            body: Data(#"{"username":"lead","password":"lead long password"}"#.utf8), app: app)
        #expect(login.status == 201)
        #expect(login.json["roles"] as? [String] == ["inspector", "manager"])
        let lead = try #require(login.json["token"] as? String)

        // A catalogue, registered by the admin.
        let bossLogin = try await ServeProcessTests.send(
            port: server.port, "POST", "/v1/sessions",
            body: Data(#"{"username":"boss","password":"boss long password"}"#.utf8), app: app)
        let bossToken = try #require(bossLogin.json["token"] as? String)
        let catalogue =
            [#"{"commandID":"loc","type":"RegisterLocation","locationID":"S1","name":"Store","kind":0}"#]
            + (0..<2).map {
                #"{"commandID":"prod-\#($0)","type":"RegisterProduct","gtin":"\#(Self.gtin($0))","name":"P\#($0)","brand":"B","manufacturer":"M","productType":0,"category":"C","listings":[{"locationID":"S1","aisle":"A"}]}"#
            }
            + (0..<2).map {
                #"{"commandID":"ds-\#($0)","type":"ImportDatasheet","gtin":"\#(Self.gtin($0))","datasheetID":"ds-\#($0)","source":"t","attributes":[{"path":"name/fi","value":"v"}]}"#
            }
        let registered = try await ServeProcessTests.send(
            port: server.port, "POST", "/v1/commands",
            body: Data(#"{"commands":[\#(catalogue.joined(separator: ","))]}"#.utf8), token: bossToken, app: app)
        #expect(registered.status == 200)

        // The lead inspects their own task; ina's task is another inspector's, which a manager may act on.
        func bundle(_ commands: [String], token: String) async throws -> [[String: Any]] {
            let reply = try await ServeProcessTests.send(
                port: server.port, "POST", "/v1/commands",
                body: Data(#"{"commands":[\#(commands.joined(separator: ","))]}"#.utf8), token: token, app: app)
            #expect(reply.status == 200, "\(reply.json)")
            return reply.json["outcomes"] as? [[String: Any]] ?? []
        }
        let allocated = try await bundle(
            [
                #"{"commandID":"lead-a","type":"AllocateAdHocTask","inspectorID":"lead","locationID":"S1","gtin":"\#(Self.gtin(0))"}"#
            ], token: lead)
        let task = try #require(allocated.first?["createdID"] as? String, "\(allocated)")
        let inspected = try await bundle(
            [#"{"commandID":"lead-s","type":"StartInspection","taskID":"\#(task)"}"#], token: lead)
        #expect(inspected.first?["status"] as? String == "accepted", "\(inspected)")
        let coverage = try await ServeProcessTests.send(
            port: server.port, "GET", "/v1/coverage", token: lead, app: app)
        #expect(coverage.status == 200)

        // ina, an inspector alone, may not read coverage; the lead acts on ina's task as a manager.
        let inaLogin = try await ServeProcessTests.send(
            port: server.port, "POST", "/v1/sessions",
            body: Data(#"{"username":"ina","password":"ina long password"}"#.utf8), app: app)
        let ina = try #require(inaLogin.json["token"] as? String)
        #expect(
            try await ServeProcessTests.send(port: server.port, "GET", "/v1/coverage", token: ina, app: app).status
                == 403)
        let inaTask = try #require(
            try await bundle(
                [
                    #"{"commandID":"ina-a","type":"AllocateAdHocTask","inspectorID":"ina","locationID":"S1","gtin":"\#(Self.gtin(1))"}"#
                ], token: ina
            ).first?["createdID"] as? String)
        let onColleague = try await bundle(
            [#"{"commandID":"lead-on-ina","type":"StartInspection","taskID":"\#(inaTask)"}"#], token: lead)
        #expect(onColleague.first?["status"] as? String == "accepted", "\(onColleague)")

        // The other account and app commands through the server: roles, password, disable, apps.
        let roles = try ItemAuditBinary.run(
            ["users", "roles", "ina", "--role", "inspector", "--role", "receiver", "--server", url], environment: admin)
        #expect(roles.status == 0 && roles.stdout.contains("ina now has roles inspector, receiver"), "\(roles.stderr)")
        let passwd = try ItemAuditBinary.run(
            ["users", "passwd", "ina", "--password-stdin", "--server", url], stdin: Data("ina newer password\n".utf8),
            environment: admin)
        #expect(passwd.status == 0, "\(passwd.stderr)")
        let relogin = try await ServeProcessTests.send(
            port: server.port, "POST", "/v1/sessions",
            body: Data(#"{"username":"ina","password":"ina newer password"}"#.utf8), app: app)
        #expect(relogin.status == 201)
        #expect(relogin.json["roles"] as? [String] == ["inspector", "receiver"])
        let disable = try ItemAuditBinary.run(
            ["users", "disable", "ina", "--reason", "left", "--server", url], environment: admin)
        #expect(disable.status == 0, "\(disable.stderr)")
        let again = try ItemAuditBinary.run(["users", "disable", "ina", "--server", url], environment: admin)
        #expect(again.status == 2 && again.stderr.contains("already disabled"), "\(again.stderr)")
        let phone = try ItemAuditBinary.run(
            ["apps", "add", "Ina's phone", "--id", "phone", "--format", "json", "--server", url], environment: admin)
        #expect(phone.status == 0, "\(phone.stderr)")
        let phoneSecret = try #require(
            (try JSONSerialization.jsonObject(with: Data(phone.stdout.utf8)) as? [String: String])?["secret"])
        let apps = try ItemAuditBinary.run(["apps", "list", "--server", url], environment: admin)
        #expect(apps.status == 0 && apps.stdout.contains("phone") && !apps.stdout.contains(phoneSecret))
        let revoke = try ItemAuditBinary.run(["apps", "revoke", "phone", "--server", url], environment: admin)
        #expect(revoke.status == 0, "\(revoke.stderr)")
        let revokedLogin = try await ServeProcessTests.send(
            port: server.port, "POST", "/v1/sessions",
            body: Data(#"{"username":"lead","password":"lead long password"}"#.utf8), app: ("phone", phoneSecret))
        #expect(revokedLogin.status == 401)
    }
}
