import Foundation
import Logging
import PostgresLog

/// The peer figure for `bench log --store`: Python's `eventsourcing` library
/// (tools/bench/eventsourcing-peer.py) appending and reading the same number of events, with the
/// same payload size, on the same PostgreSQL cluster, in a scratch database of its own.
public struct PeerBenchmark: Sendable {
    public var script: URL
    public var events: Int
    public var concurrentEvents: Int
    public var payloadBytes: Int
    public var url: PostgresStoreURL
    public var logger: Logger

    public init(
        script: URL, events: Int, concurrentEvents: Int, payloadBytes: Int, url: PostgresStoreURL, logger: Logger
    ) {
        self.script = script
        self.events = events
        self.concurrentEvents = concurrentEvents
        self.payloadBytes = payloadBytes
        self.url = url
        self.logger = logger
    }

    /// What the peer measured, in events per second.
    public struct Figures: Sendable, Decodable {
        public var batchAppend: Double
        public var concurrentAppend: Double
        public var replay: Double

        enum CodingKeys: String, CodingKey {
            case batchAppend = "batched-append-events-per-s"
            case concurrentAppend = "concurrent-append-events-per-s"
            case replay = "replay-events-per-s"
        }
    }

    /// Runs the script and reads its JSON line.
    /// - Throws: ``BenchmarkFailure`` when the script is missing, fails, or prints something else.
    public func run() throws -> Figures {
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw BenchmarkFailure(
                message: "no peer script at \(script.path) (run from the repository root, or pass --peer-script)")
        }
        let name = "itemaudit_bench_\(ProcessInfo.processInfo.processIdentifier)_peer"
        _ = try PostgresAdmin.createDatabase(name, on: url, logger: logger)
        defer { try? PostgresAdmin.dropDatabase(name, on: url, logger: logger) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", script.path, "--host", url.host, "--port", String(url.port), "--user", url.user,
            "--dbname", name, "--events", String(events), "--batch", "1000",
            "--concurrent-events", String(concurrentEvents), "--concurrency", "64",
            "--payload-bytes", String(payloadBytes),
        ]
        var environment = ProcessInfo.processInfo.environment
        if let password = url.password { environment["PGPASSWORD"] = password }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure(message: "the peer script exited with status \(process.terminationStatus)")
        }
        do {
            return try JSONDecoder().decode(Figures.self, from: data)
        } catch {
            throw BenchmarkFailure(
                message:
                    "the peer script printed \(String(decoding: data.prefix(200), as: UTF8.self)), not its JSON figures"
            )
        }
    }
}
