import AuditLog
import Crypto
import Foundation
import Logging
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `itemaudit serve` as a real process: killed with SIGKILL after acknowledging bundles, restarted,
/// and every acknowledged command is in the log exactly once.
@Suite("serve as a process")
struct ServeProcessTests {
    /// A running `itemaudit serve --port 0`, and the port it printed.
    final class Server {
        let process = Process()
        let port: Int

        /// `log`, when given, receives the server's log lines (its standard output after the listening line).
        init(data: URL, store: String? = nil, options: [String] = [], log: URL? = nil) throws {
            process.executableURL = ItemAuditBinary.executable
            process.arguments =
                ["serve", "--data", data.path, "--port", "0", "--log-level", "warning"]
                + (store.map { ["--store", $0] } ?? []) + options
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            // Log lines (at --log-level info and below) may come before the listening line.
            while text.range(of: #":(\d+) \(data"#, options: .regularExpression) == nil {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let range = text.range(of: #":(\d+) \(data"#, options: .regularExpression),
                let port = Int(text[range].dropFirst().prefix { $0.isNumber })
            else { throw TestFailure("serve printed no port: \(text)") }
            self.port = port
            if let log {
                // The rest of standard output (the server's log lines) goes to the file.
                FileManager.default.createFile(atPath: log.path, contents: Data(text.utf8))
                let file = try FileHandle(forWritingTo: log)
                file.seekToEndOfFile()
                out.fileHandleForReading.readabilityHandler = { handle in
                    let chunk = handle.availableData
                    if chunk.isEmpty { handle.readabilityHandler = nil } else { file.write(chunk) }
                }
            }
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Sends a request signed by `itemaudit sign` (so the binary's signing is what is tested).
    static func send(
        port: Int, _ method: String, _ path: String, body: Data = Data(), contentType: String? = nil,
        token: String? = nil, app: (String, String)
    ) async throws -> (status: Int, json: [String: Any]) {
        let reply = try await exchange(
            port: port, method, path, body: body, contentType: contentType, token: token, app: app)
        return (reply.status, reply.json)
    }

    /// A reply's status, headers and JSON body.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var json: [String: Any]
        /// The body's bytes as received (an image's, where `json` is empty).
        var body = Data()

        /// The value of header `name`, whatever its case.
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// Like ``send(port:_:_:body:token:app:)``, with the reply's headers, a request timeout and
    /// unsigned extra request headers (`Accept-Language`).
    static func exchange(
        port: Int, _ method: String, _ path: String, body: Data = Data(), contentType: String? = nil,
        token: String? = nil, app: (String, String), timeout: TimeInterval = 60, headers extra: [String: String] = [:]
    ) async throws -> Reply {
        let bodyFile = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        try body.write(to: bodyFile)
        var arguments = ["sign", method, path, "--format", "json", "--app", app.0]
        if !body.isEmpty { arguments += ["--body-file", bodyFile.path] }
        if let token { arguments += ["--token", token] }
        if let contentType { arguments += ["--content-type", contentType] }
        let signed = try ItemAuditBinary.run(arguments, environment: ["ITEMAUDIT_SECRET": app.1])
        guard signed.status == 0,
            let headers = try JSONSerialization.jsonObject(with: Data(signed.stdout.utf8)) as? [String: String]
        else { throw TestFailure("sign failed: \(signed.stderr)") }
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        for (name, value) in extra { request.setValue(value, forHTTPHeaderField: name) }
        if !body.isEmpty { request.httpBody = body }
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        let http = response as? HTTPURLResponse
        var replyHeaders: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { replyHeaders[name] = value }
        }
        return Reply(status: http?.statusCode ?? 0, headers: replyHeaders, json: json, body: data)
    }

    static func bundle(_ round: Int) -> Data {
        let commands = (0..<10).map {
            #"{"commandID":"loc-\#(round)-\#($0)","type":"RegisterLocation","locationID":"L\#(round)-\#($0)","name":"Shop \#(round)","kind":0}"#
        }
        return Data(#"{"commands":[\#(commands.joined(separator: ","))]}"#.utf8)
    }

    /// A small JPEG unique to `index`, and the path it is uploaded to.
    static func photo(_ index: Int) -> (body: Data, path: String) {
        let bytes = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array("photo \(index)".utf8) + [UInt8](repeating: 7, count: 2_000))
        return (bytes, "/v1/photos/" + SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined())
    }

    @Test("kill -9 after acknowledged bundles and photos; restart; each command in the log once, each photo kept")
    func killAndRestart() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let add = try ItemAuditBinary.run(
            ["users", "add", "boss", "--role", "admin", "--data", data.path, "--password-stdin"],
            stdin: Data("a long password\n".utf8))
        #expect(add.status == 0, "\(add.stderr)")
        let created = try ItemAuditBinary.run([
            "apps", "add", "test rig", "--id", "rig", "--format", "json", "--data", data.path,
        ])
        let secret = try #require(
            (try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: String])?["secret"])
        let app = ("rig", secret)
        let listed = try ItemAuditBinary.run(["apps", "list", "--data", data.path])
        #expect(listed.stdout.contains("rig") && !listed.stdout.contains(secret))

        var acknowledged: [String] = []
        var storedPhotos: [Int] = []
        do {
            let server = try Server(data: data)
            let login = try await Self.send(
                port: server.port, "POST", "/v1/sessions",
                body: Data(#"{"username":"boss","password":"a long password"}"#.utf8), app: app)
            #expect(login.status == 201)
            let token = try #require(login.json["token"] as? String)
            // Acknowledged bundles, then one more sent while the process is killed.
            for round in 0..<8 {
                let reply = try await Self.send(
                    port: server.port, "POST", "/v1/commands", body: Self.bundle(round), token: token, app: app)
                #expect(reply.status == 200)
                let outcomes = reply.json["outcomes"] as? [[String: Any]] ?? []
                acknowledged += outcomes.filter { $0["status"] as? String == "accepted" }.compactMap {
                    $0["commandID"] as? String
                }
            }
            for index in 0..<6 {
                let photo = Self.photo(index)
                let reply = try await Self.send(
                    port: server.port, "PUT", photo.path, body: photo.body, contentType: "image/jpeg", token: token,
                    app: app)
                #expect(reply.status == 201)
                if reply.status == 201 { storedPhotos.append(index) }
            }
            let port = server.port
            async let inFlight = try? Self.send(
                port: port, "POST", "/v1/commands", body: Self.bundle(99), token: token, app: app)
            async let photoInFlight = try? Self.send(
                port: port, "PUT", Self.photo(99).path, body: Self.photo(99).body, contentType: "image/jpeg",
                token: token, app: app)
            kill(server.process.processIdentifier, SIGKILL)
            server.process.waitUntilExit()
            _ = await (inFlight, photoInFlight)
        }
        #expect(acknowledged.count == 80)
        #expect(storedPhotos.count == 6)

        // Restart: the log opens, the server answers, a resent bundle is all duplicates.
        let restarted = try Server(data: data)
        let login = try await Self.send(
            port: restarted.port, "POST", "/v1/sessions",
            body: Data(#"{"username":"boss","password":"a long password"}"#.utf8), app: app)
        let token = try #require(login.json["token"] as? String)
        let resent = try await Self.send(
            port: restarted.port, "POST", "/v1/commands", body: Self.bundle(3), token: token, app: app)
        #expect(
            (resent.json["outcomes"] as? [[String: Any]])?.allSatisfy { $0["status"] as? String == "duplicate" } == true
        )
        // Every acknowledged photo is still stored (sent again: 200, not new); the store takes new ones.
        for index in storedPhotos + [100] {
            let photo = Self.photo(index)
            let reply = try await Self.send(
                port: restarted.port, "PUT", photo.path, body: photo.body, contentType: "image/jpeg", token: token,
                app: app)
            #expect(reply.status == (index == 100 ? 201 : 200), "photo \(index)")
            #expect(reply.json["isNew"] as? Bool == (index == 100), "photo \(index)")
        }
        restarted.process.interrupt()  // SIGINT: graceful shutdown
        restarted.process.waitUntilExit()
        #expect(restarted.process.terminationStatus == 0)

        let log = try EventLog.open(
            directory: data.appendingPathComponent("log"), logger: Logger(label: "t") { _ in SwiftLogNoOpLogHandler() })
        var counts: [String: Int] = [:]
        try log.forEachRecord { counts[$0.commandID, default: 0] += 1 }
        try log.close()
        for id in acknowledged { #expect(counts[id] == 1, "\(id)") }
        let verify = try ItemAuditBinary.run(["verify", "--data", data.path])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test("a connection that never sends a request is closed by the server (--request-timeout-seconds)")
    func silentConnectionClosed() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let refused = try ItemAuditBinary.run(["serve", "--data", data.path, "--request-timeout-seconds", "0"])
        #expect(refused.status != 0 && refused.stderr.contains("--request-timeout-seconds must be 1 to 3600"))
        let server = try Server(data: data, options: ["--request-timeout-seconds", "1"])
        defer {
            server.process.interrupt()
            server.process.waitUntilExit()
        }
        #expect(try await Self.closedByServer(port: server.port, patience: 60))
    }

    /// Connects, sends nothing and reads until the server closes the connection: true when it did,
    /// false when `patience` seconds passed first (a bound so a broken server cannot hang the
    /// test, not a measure).
    static func closedByServer(port: Int, patience: Int) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                        guard fd >= 0 else { throw TestFailure("socket() failed") }
                        defer { close(fd) }
                        var timeout = timeval(tv_sec: patience, tv_usec: 0)
                        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                        var address = sockaddr_in()
                        address.sin_family = sa_family_t(AF_INET)
                        address.sin_port = in_port_t(UInt16(port).bigEndian)
                        address.sin_addr.s_addr = inet_addr("127.0.0.1")
                        let connected = withUnsafePointer(to: &address) {
                            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                            }
                        }
                        guard connected == 0 else { throw TestFailure("cannot connect to port \(port)") }
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        while true {
                            let count = recv(fd, &buffer, buffer.count, 0)
                            if count == 0 { return true }
                            if count < 0 { return errno == ECONNRESET }
                        }
                    })
            }
        }
    }
}
