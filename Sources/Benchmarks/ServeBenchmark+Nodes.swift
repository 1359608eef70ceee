import AsyncHTTPClient
import AuditService
import Foundation
import Histogram
import Logging
import PostgresLog

/// `bench serve --nodes N --store postgres://…`: the server benchmark across N `itemaudit serve`
/// processes sharing one PostgreSQL log, devices spread over them round-robin, against one such
/// server on the same cluster as the baseline, measured in the same run.
///
/// Each phase gets a scratch database (created on the URL's cluster, dropped afterwards) and
/// scratch data directories: the catalogue, users and device app are written once through
/// AuditService on the shared store, then every node starts on it with the same sealing key. Every
/// node follows the others' appends through LISTEN/NOTIFY; allocations from all nodes race on the
/// one allocations stream, so the figure includes the cross-server conflicts a load balancer
/// in front of several servers causes.
public struct ServeNodesBenchmark: Sendable {
    public var nodes: Int
    public var devices: Int
    public var seconds: Int
    public var url: PostgresStoreURL
    public var executable: URL
    public var directory: URL

    /// - Throws: ``PostgresLog/PostgresLogError`` `.badURL` when `urlText` is not a PostgreSQL URL.
    public init(nodes: Int, devices: Int, seconds: Int, urlText: String, executable: URL, directory: URL) throws {
        self.nodes = nodes
        self.devices = devices
        self.seconds = seconds
        self.url = try PostgresStoreURL(urlText)
        self.executable = executable
        self.directory = directory
    }

    /// What one phase measured.
    struct Phase {
        var commands: Double
        var p50: Double
        var p99: Double
        var reads: Double
        var failures: Int
    }

    /// One node, then `nodes` nodes; `progress` hears each step.
    public func run(progress: @Sendable (String) -> Void) async throws -> BenchmarkReport {
        let logger = Logger(label: "itemaudit.bench") { _ in SwiftLogNoOpLogHandler() }
        let one = try await phase(nodes: 1, logger: logger, progress: progress)
        let many = try await phase(nodes: nodes, logger: logger, progress: progress)
        let failures = one.failures + many.failures
        if failures > 0 { progress("\(failures) refused commands or failed requests (see the servers' logs)") }
        return BenchmarkReport(results: [
            BenchmarkResult(
                name: "commands-\(nodes)-nodes", value: many.commands, unit: "commands/s", baseline: one.commands),
            BenchmarkResult(name: "p50-ms-\(nodes)-nodes", value: many.p50, unit: "ms", baseline: one.p50),
            BenchmarkResult(name: "p99-ms-\(nodes)-nodes", value: many.p99, unit: "ms", baseline: one.p99),
            BenchmarkResult(name: "reads-\(nodes)-nodes", value: many.reads, unit: "requests/s", baseline: one.reads),
        ])
    }

    /// Sets up a scratch database and `nodes` data directories, starts the servers and drives
    /// the devices over them.
    private func phase(nodes: Int, logger: Logger, progress: @Sendable (String) -> Void) async throws -> Phase {
        let name = "itemaudit_bench_\(ProcessInfo.processInfo.processIdentifier)_serve_\(nodes)"
        let database = try PostgresAdmin.createDatabase(name, on: url, logger: logger)
        defer { try? PostgresAdmin.dropDatabase(name, on: url, logger: logger) }
        let products = max(2_000, devices * 400)
        let secret = (0..<32).map { UInt8($0 * 7 % 256) }
        let data = (0..<nodes).map { directory.appendingPathComponent("nodes-\(nodes)-\($0)") }
        defer { for folder in data { try? FileManager.default.removeItem(at: folder) } }

        progress("\(nodes) node(s): setting up \(products) products, \(devices) inspectors on \(database.redacted)")
        let location = LogStoreLocation(url: database.redacted)
        let setup = try await AuditService.open(dataDirectory: data[0], location: location, logger: logger)
        try await BenchServeSetup.populate(setup, devices: devices, products: products, secret: secret)
        try await setup.close()
        // The key that seals app secrets goes to every server sharing the log.
        for folder in data.dropFirst() {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: DataDirectory(data[0]).keys, to: DataDirectory(folder).keys)
        }
        var children: [BenchServeChild] = []
        defer { for child in children { child.stop() } }
        for folder in data {
            children.append(
                try BenchServeChild(
                    executable: executable, data: folder, arguments: ["--store", database.redacted],
                    environment: database.password.map { ["PGPASSWORD": $0] } ?? [:]))
        }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: devices)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let clients = (0..<devices).map {
            BenchServeDevice(
                connection: BenchHTTPConnection(host: "127.0.0.1", port: children[$0 % nodes].port),
                appID: BenchServeSetup.appID, secret: secret, inspector: BenchServeSetup.inspector($0),
                password: BenchServeSetup.password)
        }
        let tallies: [BenchServeDevice.Tally]
        let elapsed: Duration
        let reads: Double
        do {
            progress("\(nodes) node(s): \(devices) devices, \(seconds) s of commands")
            let start = ContinuousClock.now
            let deadline = start + .seconds(seconds)
            tallies = try await withThrowingTaskGroup(of: BenchServeDevice.Tally.self) { group in
                for device in clients {
                    group.addTask(executorPreference: device.connection.executor) {
                        try await device.run(until: deadline)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            elapsed = ContinuousClock.now - start
            progress("\(nodes) node(s): \(seconds) s of reads")
            // Coverage is the manager's read (an inspector is refused it), spread over the nodes.
            let managers = (0..<devices).map {
                BenchServeDevice(
                    connection: BenchHTTPConnection(host: "127.0.0.1", port: children[$0 % nodes].port),
                    appID: BenchServeSetup.appID, secret: secret, inspector: BenchServePages.manager,
                    password: BenchServeSetup.password)
            }
            reads = try await BenchServeReads.run(managers, seconds: seconds)
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        for tally in tallies { histogram.add(tally.bundleMicros) }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Phase(
            commands: Double(tallies.map(\.commands).reduce(0, +)) / seconds,
            p50: Double(histogram.valueAtPercentile(50)) / 1000, p99: Double(histogram.valueAtPercentile(99)) / 1000,
            reads: reads, failures: tallies.map(\.failures).reduce(0, +))
    }
}
