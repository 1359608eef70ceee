import AuditLog
import Foundation
import Logging
import PostgresLog
import PostgresTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Two `itemaudit serve --store` processes on one PostgreSQL database: devices spread over both,
/// allocations racing on the same stream and sent to both, one server SIGKILLed mid-run and
/// restarted. At the end every acknowledged command is in
/// the log once, no product is allocated twice, both servers answer alike, and verify is clean.
@Suite("two servers, one PostgreSQL log", .serialized)
struct SharedStoreServeTests {
    typealias Server = ServeProcessTests.Server

    static func gtin(_ index: Int) -> String {
        let body = "0641234501" + String(format: "%03d", index)
        let digits = body.compactMap(\.wholeNumberValue)
        var sum = 0
        for (offset, digit) in digits.reversed().enumerated() { sum += digit * (offset.isMultiple(of: 2) ? 3 : 1) }
        return body + String((10 - sum % 10) % 10)
    }

    static func bundle(_ commands: [String]) -> Data {
        Data(#"{"commands":[\#(commands.joined(separator: ","))]}"#.utf8)
    }

    static let catalogue: Data = bundle(
        [
            #"{"commandID":"loc-S1","type":"RegisterLocation","locationID":"S1","name":"Shop","kind":0}"#,
            #"{"commandID":"insp-i1","type":"RegisterInspector","inspectorID":"i1","name":"Ann","role":0}"#,
            #"{"commandID":"insp-i2","type":"RegisterInspector","inspectorID":"i2","name":"Ben","role":0}"#,
        ]
            + (0..<12).map {
                #"{"commandID":"prod-\#($0)","type":"RegisterProduct","gtin":"\#(gtin($0))","name":"P\#($0)","brand":"B","manufacturer":"M","productType":0,"category":"C","listings":[{"locationID":"S1","aisle":"A"}]}"#
            }
            + (0..<12).map {
                #"{"commandID":"ds-\#($0)","type":"ImportDatasheet","gtin":"\#(gtin($0))","datasheetID":"ds-\#($0)","source":"t","attributes":[{"path":"name/fi","value":"v"}]}"#
            })

    static func allocation(_ index: Int) -> Data {
        bundle([
            #"{"commandID":"alloc-\#(index)","type":"AllocateBatch","inspectorID":"i\#(index % 2 + 1)","locationID":"S1","mode":2,"quantity":1}"#
        ])
    }

    static func accepted(_ reply: (status: Int, json: [String: Any])) -> [String] {
        guard reply.status == 200 else { return [] }
        return (reply.json["outcomes"] as? [[String: Any]] ?? []).filter {
            ["accepted", "duplicate"].contains($0["status"] as? String)
        }.compactMap { $0["commandID"] as? String }
    }

    @Test("racing allocations over two servers, one killed and restarted: each command once, each product once")
    func twoServersOneDatabase() async throws {
        let database = try TemporaryDatabase()
        let store = database.urlString
        let dataA = FileManager.default.temporaryDirectory.appendingPathComponent("shared-a-\(UUID().uuidString)")
        let dataB = FileManager.default.temporaryDirectory.appendingPathComponent("shared-b-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: dataA)
            try? FileManager.default.removeItem(at: dataB)
        }
        let add = try ItemAuditBinary.run(
            ["users", "add", "boss", "--role", "admin", "--data", dataA.path, "--store", store, "--password-stdin"],
            stdin: Data("a long password\n".utf8))
        #expect(add.status == 0, "\(add.stderr)")
        let created = try ItemAuditBinary.run([
            "apps", "add", "rig", "--id", "rig", "--format", "json", "--data", dataA.path, "--store", store,
        ])
        let secret = try #require(
            (try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: String])?["secret"],
            "\(created.stderr)")
        let app = ("rig", secret)
        // The key that seals app secrets goes to every server sharing the log.
        try FileManager.default.createDirectory(at: dataB, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: dataA.appendingPathComponent("keys"), to: dataB.appendingPathComponent("keys"))

        let serverA = try Server(data: dataA, store: store)
        var serverB = try Server(data: dataB, store: store)
        func login(_ server: Server) async throws -> String {
            let reply = try await ServeProcessTests.send(
                port: server.port, "POST", "/v1/sessions",
                body: Data(#"{"username":"boss","password":"a long password"}"#.utf8), app: app)
            return try #require(reply.json["token"] as? String, "login: \(reply)")
        }
        let tokenA = try await login(serverA)
        var tokenB = try await login(serverB)
        let catalogue = try await ServeProcessTests.send(
            port: serverA.port, "POST", "/v1/commands", body: Self.catalogue, token: tokenA, app: app)
        #expect(Self.accepted(catalogue).count == 27, "\(catalogue)")

        // Twelve allocations of one product each, every one sent to both servers at once (a
        // device retrying on the other server): they race on the same allocations stream.
        var acknowledged = Set(Self.accepted(catalogue))
        let (portA, portB, firstTokenB) = (serverA.port, serverB.port, tokenB)
        for index in 0..<6 {
            async let onA = ServeProcessTests.send(
                port: portA, "POST", "/v1/commands", body: Self.allocation(index), token: tokenA, app: app)
            async let onB = ServeProcessTests.send(
                port: portB, "POST", "/v1/commands", body: Self.allocation(index), token: firstTokenB, app: app)
            for reply in [try await onA, try await onB] {
                #expect(Self.accepted(reply) == ["alloc-\(index)"], "allocation \(index): \(reply)")
                acknowledged.formUnion(Self.accepted(reply))
            }
        }
        // Server B dies with an allocation in flight, and comes back.
        async let inFlight = try? ServeProcessTests.send(
            port: portB, "POST", "/v1/commands", body: Self.allocation(6), token: firstTokenB, app: app)
        kill(serverB.process.processIdentifier, SIGKILL)
        serverB.process.waitUntilExit()
        _ = await inFlight
        serverB = try Server(data: dataB, store: store)
        tokenB = try await login(serverB)
        for index in 6..<12 {
            let server = index.isMultiple(of: 2) ? serverA : serverB
            let reply = try await ServeProcessTests.send(
                port: server.port, "POST", "/v1/commands", body: Self.allocation(index),
                token: server === serverA ? tokenA : tokenB, app: app)
            acknowledged.formUnion(Self.accepted(reply))
        }
        #expect(acknowledged.count == 12 + 27)

        // Both servers converge on the same batches (projections fed by LISTEN/NOTIFY).
        var listings: [String] = []
        for (server, token) in [(serverA, tokenA), (serverB, tokenB)] {
            var batches: [[String: Any]] = []
            for _ in 0..<100 {
                let reply = try await ServeProcessTests.send(
                    port: server.port, "GET", "/v1/batches", token: token, app: app)
                batches = reply.json["batches"] as? [[String: Any]] ?? []
                if batches.count >= 12 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(batches.count == 12)
            listings.append(batches.compactMap { $0["batchID"] as? String }.sorted().joined(separator: ","))
        }
        #expect(listings.count == 2 && listings[0] == listings[1])
        // No product is allocated twice: the batches' tasks name twelve different products.
        var gtins: [String] = []
        for batchID in listings[0].split(separator: ",") {
            let reply = try await ServeProcessTests.send(
                port: serverB.port, "GET", "/v1/batches/\(batchID)", token: tokenB, app: app)
            gtins += (reply.json["tasks"] as? [[String: Any]] ?? []).compactMap { $0["gtin"] as? String }
        }
        #expect(gtins.count == 12 && Set(gtins).count == 12, "\(gtins)")
        for server in [serverA, serverB] {
            server.process.interrupt()
            server.process.waitUntilExit()
        }

        let logger = Logger(label: "t") { _ in SwiftLogNoOpLogHandler() }
        let log = try PostgresEventStore.open(url: database.url, logger: logger)
        // Each acknowledged command was appended once: one first record (the one that carries
        // the command's fingerprint) per command id.
        var appends: [String: Int] = [:]
        try log.forEachRecord(from: 1, upTo: nil) { record in
            if record.commandFingerprint != nil { appends[record.commandID, default: 0] += 1 }
        }
        try log.close()
        for id in acknowledged { #expect(appends[id] == 1, "\(id) appended \(appends[id] ?? 0) times") }
        let verify = try ItemAuditBinary.run(["verify", "--data", dataA.path, "--store", store])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }
}
