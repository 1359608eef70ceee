import AsyncHTTPClient
import AuditServer
import AuditService
import Foundation
import Histogram
import Logging
import NIOCore

/// `bench serve`: N devices over signed HTTP against a child `itemaudit serve`, and the same flow
/// through AuditService directly as the baseline, in one run.
public struct ServeBenchmark: Sendable {
    /// Simulated devices.
    public var devices: Int
    /// Seconds each phase runs.
    public var seconds: Int
    /// The `itemaudit` executable to start as the server.
    public var executable: URL
    /// Where scratch data directories go (removed afterwards).
    public var directory: URL

    /// Creates the benchmark.
    public init(devices: Int, seconds: Int, executable: URL, directory: URL) {
        self.devices = devices
        self.seconds = seconds
        self.executable = executable
        self.directory = directory
    }

    /// A refusal of the setup (the server did not start).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs the baseline, the command phase and the read phase; `progress` hears each step.
    public func run(progress: @Sendable (String) -> Void) async throws -> BenchmarkReport {
        let note = progress
        let devices = devices
        let seconds = seconds
        let scratch = directory
        let logger = Logger(label: "itemaudit.bench") { _ in SwiftLogNoOpLogHandler() }
        let products = max(2_000, devices * 400)
        let secret = (0..<32).map { UInt8($0 * 7 % 256) }

        note("direct baseline: \(devices) devices, \(seconds) s in two halves, before and after the HTTP phases")
        let directData = scratch.appendingPathComponent("direct")
        let direct = try await AuditService.open(dataDirectory: directData, logger: logger)
        try await BenchServeSetup.populate(direct, devices: devices, products: products, secret: secret)
        // As the server's service does (its upkeep starts this), so both sides keep the read models
        // folded while commands come: the fold is the service's work, not the HTTP layer's.
        _ = try await direct.followProjections()
        // Half before the HTTP phase and half after: a shared machine's speed drifts over a run,
        // and the two halves straddle the HTTP phase, so the ratio compares like with like.
        var baseline = BenchServeBaseline.Tally(rounds: Array(repeating: 0, count: devices))
        let half = Duration.seconds(seconds) / 2
        try await BenchServeBaseline.run(direct, for: half, adding: &baseline)

        note("HTTP: setting up \(products) products, \(devices) inspectors")
        let serverData = scratch.appendingPathComponent("server")
        let setup = try await AuditService.open(dataDirectory: serverData, logger: logger)
        try await BenchServeSetup.populate(setup, devices: devices, products: products, secret: secret)
        try await setup.close()
        let child = try BenchServeChild(executable: executable, data: serverData)
        defer { child.stop() }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: devices)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let result: (tallies: [BenchServeDevice.Tally], elapsed: Double, reads: Double, serverCPU: Double?)
        let pages: Double
        var directOpen = true
        do {
            result = try await Self.drive(
                client: client, port: child.port, devices: devices, seconds: seconds, secret: secret, note: note,
                cpu: BenchServeCPU(serverPID: child.process.processIdentifier))
            // The second half once the server is idle: its reads ran to the end, and nothing of
            // the command phase is left for it to fold.
            note("direct baseline: the second half")
            let firstHalf = baseline
            try await BenchServeBaseline.run(direct, for: half, adding: &baseline)
            let secondRate =
                Double(baseline.commands - firstHalf.commands) / max(baseline.seconds - firstHalf.seconds, 1e-9)
            note("direct baseline: \(Int(firstHalf.rate)) commands/s before, \(Int(secondRate)) after")
            directOpen = false
            try await direct.close()
            note("HTTP: \(seconds) s of dashboard pages")
            pages = try await BenchServePages.run(
                client: client, baseURL: "http://127.0.0.1:\(child.port)", clients: devices, seconds: seconds)
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            if directOpen { try? await direct.close() }
            throw error
        }
        let memory = child.peakResidentMB()
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        for tally in result.tallies { histogram.add(tally.bundleMicros) }
        let acknowledged = Double(result.tallies.map(\.commands).reduce(0, +))
        let commands = acknowledged / result.elapsed
        let failures = result.tallies.map(\.failures).reduce(0, +)
        if failures > 0 { note("\(failures) refused commands or failed requests (see the server log)") }
        var results = [
            BenchmarkResult(name: "commands", value: commands, unit: "commands/s", baseline: baseline.rate),
            BenchmarkResult(
                name: "p50-ms", value: Double(histogram.valueAtPercentile(50)) / 1000, unit: "ms", baseline: nil),
            BenchmarkResult(
                name: "p99-ms", value: Double(histogram.valueAtPercentile(99)) / 1000, unit: "ms", baseline: nil),
            BenchmarkResult(name: "reads", value: result.reads, unit: "requests/s", baseline: nil),
            BenchmarkResult(name: "pages", value: pages, unit: "pages/s", baseline: nil),
            BenchmarkResult(name: "memory", value: memory, unit: "MB", baseline: nil),
        ]
        // CPU time per acknowledged command: the server's over HTTP, this process's on the direct
        // path. The cost of a command, apart from how much of the shared machine the run was given.
        if let serverCPU = result.serverCPU, acknowledged > 0 {
            results.append(
                BenchmarkResult(
                    name: "cpu-per-command", value: serverCPU * 1e6 / acknowledged, unit: "µs",
                    baseline: baseline.cpuMicros))
        }
        return BenchmarkReport(results: results)
    }

    /// The command phase, then the read phase, against the child server.
    static func drive(
        client: HTTPClient, port: Int, devices: Int, seconds: Int, secret: [UInt8], note: (String) -> Void,
        cpu: BenchServeCPU? = nil
    ) async throws
        -> (tallies: [BenchServeDevice.Tally], elapsed: Double, reads: Double, serverCPU: Double?)
    {
        let base = "http://127.0.0.1:\(port)"
        let clients = (0..<devices).map {
            BenchServeDevice(
                connection: BenchHTTPConnection(host: "127.0.0.1", port: port), appID: BenchServeSetup.appID,
                secret: secret, inspector: BenchServeSetup.inspector($0), password: BenchServeSetup.password)
        }
        note("HTTP: \(devices) devices, \(seconds) s of commands")
        var cpuStart = cpu?.sample()
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        let tallies = try await withThrowingTaskGroup(of: BenchServeDevice.Tally.self) { group in
            for device in clients {
                group.addTask(executorPreference: device.connection.executor) {
                    try await device.run(until: deadline)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let elapsed = ContinuousClock.now - start
        let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // One sample ends the phase, for both the note and the cpu-per-command figure.
        var serverCPU: Double?
        if let cpu, let cpuStart {
            let end = cpu.sample()
            serverCPU = end.server - cpuStart.server
            note(cpu.describe("commands", from: cpuStart, to: end, seconds: elapsedSeconds))
        }
        if let groups = try? await BenchServeReads.groupCommits(client: client, baseURL: base) { note(groups) }
        note("HTTP: \(seconds) s of reads")
        // The manager's dashboard figure, from as many clients as there are devices.
        let managers = (0..<devices).map { _ in
            BenchServeDevice(
                connection: BenchHTTPConnection(host: "127.0.0.1", port: port), appID: BenchServeSetup.appID,
                secret: secret, inspector: BenchServePages.manager, password: BenchServeSetup.password)
        }
        cpuStart = cpu?.sample()
        let readStart = ContinuousClock.now
        let reads = try await BenchServeReads.run(managers, seconds: seconds)
        let readTime = ContinuousClock.now - readStart
        let readSeconds = Double(readTime.components.seconds) + Double(readTime.components.attoseconds) / 1e18
        if let cpu, let cpuStart { note(cpu.describe("reads", from: cpuStart, to: cpu.sample(), seconds: readSeconds)) }
        return (tallies, elapsedSeconds, reads, serverCPU)
    }
}
