import Foundation
import PostgresTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `itemaudit serve --store postgres://…` whose database stops for a moment: reads are
/// still answered from the server's projections, appends are refused with 503 problem+json and
/// a Retry-After, and once the database is back the same command is accepted.
///
/// The test stops a cluster of its own (stopping the shared test cluster would fail the tests
/// running beside it). Everything it waits for has a deadline: every child process (pg-cluster,
/// the server's start) and every request, so a wedged step fails the test instead of hanging it.
@Suite("the shared log's database briefly down", .serialized)
struct SharedStoreOutageTests {
    typealias Server = ServeProcessTests.Server

    @Test(
        "database stopped: reads 200 from the projections, appends 503 with Retry-After; restarted: appends accepted",
        .timeLimit(.minutes(5)))
    func databaseBrieflyDown() async throws {
        _ = try TemporaryDatabase.clusterURL()  // the suite runs under tools/test, which provides PostgreSQL
        let store = try BoundedProcess.pgCluster(["start", "--new"], seconds: 120)
        let clusterDirectory = try #require(
            store.components(separatedBy: "host=").last?.components(separatedBy: "&").first, "\(store)")
        defer { _ = try? BoundedProcess.pgCluster(["stop", clusterDirectory], seconds: 60) }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("outage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }

        let add = try ItemAuditBinary.run(
            ["users", "add", "boss", "--role", "admin", "--data", data.path, "--store", store, "--password-stdin"],
            stdin: Data("a long password\n".utf8))
        #expect(add.status == 0, "\(add.stderr)")
        let created = try ItemAuditBinary.run([
            "apps", "add", "rig", "--id", "rig", "--format", "json", "--data", data.path, "--store", store,
        ])
        let secret = try #require(
            (try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: String])?["secret"],
            "\(created.stderr)")
        let app = ("rig", secret)
        let server = try Server(data: data, store: store)
        defer {
            server.process.interrupt()
            BoundedProcess.waitForExit(server.process, seconds: 10)
        }
        func send(_ method: String, _ path: String, body: Data = Data(), token: String? = nil) async throws
            -> ServeProcessTests.Reply
        {
            try await ServeProcessTests.exchange(
                port: server.port, method, path, body: body, token: token, app: app, timeout: 15)
        }
        let login = try await send(
            "POST", "/v1/sessions", body: Data(#"{"username":"boss","password":"a long password"}"#.utf8))
        let token = try #require(login.json["token"] as? String, "login: \(login.status) \(login.json)")
        let catalogue = try await send("POST", "/v1/commands", body: SharedStoreServeTests.catalogue, token: token)
        #expect(SharedStoreServeTests.accepted((catalogue.status, catalogue.json)).count == 27, "\(catalogue.json)")

        _ = try BoundedProcess.pgCluster(["pause", clusterDirectory], seconds: 60)
        let locations = try await send("GET", "/v1/locations", token: token)
        #expect(locations.status == 200, "a read with the database down: \(locations.status) \(locations.json)")
        #expect((locations.json["locations"] as? [[String: Any]])?.count == 1, "\(locations.json)")
        let noBatches = try await send("GET", "/v1/batches", token: token)
        #expect(noBatches.status == 200, "\(noBatches.status) \(noBatches.json)")

        let refused = try await send("POST", "/v1/commands", body: SharedStoreServeTests.allocation(0), token: token)
        #expect(refused.status == 503, "an append with the database down: \(refused.status) \(refused.json)")
        #expect(refused.header("Content-Type")?.hasPrefix("application/problem+json") == true, "\(refused.headers)")
        #expect(Int(refused.header("Retry-After") ?? "") ?? 0 > 0, "no Retry-After: \(refused.headers)")
        #expect(refused.json["code"] as? String == "store-unavailable", "\(refused.json)")

        _ = try BoundedProcess.pgCluster(["resume", clusterDirectory], seconds: 60)
        var accepted: [String] = []
        var last = refused
        for _ in 0..<50 where accepted.isEmpty {
            last = try await send("POST", "/v1/commands", body: SharedStoreServeTests.allocation(0), token: token)
            accepted = SharedStoreServeTests.accepted((last.status, last.json))
            if accepted.isEmpty { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(accepted == ["alloc-0"], "after the restart: \(last.status) \(last.json)")
        let batches = try await send("GET", "/v1/batches", token: token)
        #expect((batches.json["batches"] as? [[String: Any]])?.count == 1, "\(batches.json)")
        let verify = try ItemAuditBinary.run(["verify", "--data", data.path, "--store", store])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }
}

/// Child processes with a deadline: output goes to a file (never a pipe a grandchild could keep
/// open), and a process still running at the deadline is killed and reported.
enum BoundedProcess {
    /// The repository's tools/pg-cluster, from this file's place in the tree.
    static let pgClusterScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("tools/pg-cluster")

    /// Runs tools/pg-cluster and returns its trimmed standard output.
    static func pgCluster(_ arguments: [String], seconds: Double) throws -> String {
        try run(pgClusterScript, arguments, seconds: seconds)
    }

    static func run(_ executable: URL, _ arguments: [String], seconds: Double) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bounded-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: output.path])
        }
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let name = "\(executable.lastPathComponent) \(arguments.joined(separator: " "))"
        guard waitForExit(process, seconds: seconds) else {
            throw ServeProcessTests.TestFailure("\(name) still ran after \(seconds) s and was killed")
        }
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw ServeProcessTests.TestFailure("\(name) exited with \(process.terminationStatus): \(text)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits up to `seconds` for `process` to end; kills it (SIGKILL) when it has not. True when it ended.
    /// Never `waitUntilExit()`: Foundation reports an exit only once every descendant holding
    /// the child's descriptors has closed them, which a daemon the child started never does.
    @discardableResult
    static func waitForExit(_ process: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard process.isRunning else { return true }
        kill(process.processIdentifier, SIGKILL)
        let grace = Date().addingTimeInterval(5)
        while process.isRunning && Date() < grace { usleep(20_000) }
        return false
    }
}
