import ArgumentParser
import AsyncHTTPClient
import AuditServer
import AuditService
import Benchmarks
import Foundation
import Histogram
import Inspection
import Logging
import NIOCore

/// `itemaudit bench serve`: the HTTP API under N devices against the same flow through AuditService.
struct BenchServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Benchmark `itemaudit serve`: signed command bundles, latency, reads and memory.",
        discussion: """
            Sets up a catalogue, one inspector per device and a device app in a scratch directory, \
            starts `itemaudit serve` on loopback as a child process and drives N devices over \
            keep-alive HTTP (async-http-client) through the real flow: log in, allocate, fetch the \
            batch, upload photos, collect, inspect and submit in bundles of up to 10 commands. The \
            baseline runs the same flow through AuditService directly in this process, on its own \
            scratch directory, for the same time. Figures: commands (acknowledged durably per \
            second, ratio against the direct path), p50-ms and p99-ms (bundle latency, HdrHistogram), \
            reads (GET /v1/batches/{id} per second, N devices) and memory (the server's peak resident MB).

            Example:
              itemaudit bench serve --devices 64 --seconds 10 --format json
            """
    )

    @Option(help: "Simulated devices (concurrent clients).") var devices = 64
    @Option(help: "Seconds each phase runs.") var seconds = 10
    @OptionGroup var output: FormatOption

    func validate() throws {
        guard (1...1024).contains(devices) else { throw ValidationError("--devices must be 1 to 1024") }
        guard (1...600).contains(seconds) else { throw ValidationError("--seconds must be 1 to 600") }
    }

    static func note(_ text: String) { FileHandle.standardError.write(Data("bench: \(text)\n".utf8)) }

    func run() async throws {
        let scratch = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".itemaudit-bench-serve-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let logger = Logger(label: "itemaudit.bench") { _ in SwiftLogNoOpLogHandler() }
        let products = max(2_000, devices * 400)
        let secret = (0..<32).map { UInt8($0 * 7 % 256) }

        Self.note("direct baseline: \(devices) devices, \(seconds) s")
        let directData = scratch.appendingPathComponent("direct")
        let direct = try await AuditService.open(dataDirectory: directData, logger: logger)
        try await BenchServeSetup.populate(direct, devices: devices, products: products, secret: secret)
        let baseline = try await BenchServeBaseline.run(direct, devices: devices, seconds: seconds)
        try await direct.close()

        Self.note("HTTP: setting up \(products) products, \(devices) inspectors")
        let serverData = scratch.appendingPathComponent("server")
        let setup = try await AuditService.open(dataDirectory: serverData, logger: logger)
        try await BenchServeSetup.populate(setup, devices: devices, products: products, secret: secret)
        try await setup.close()
        let child = try BenchServeChild(data: serverData)
        defer { child.stop() }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: devices)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let result: (tallies: [BenchServeDevice.Tally], elapsed: Double, reads: Double)
        do {
            result = try await Self.drive(
                client: client, port: child.port, devices: devices, seconds: seconds, secret: secret)
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
        let memory = child.peakResidentMB()
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        for tally in result.tallies { histogram.add(tally.bundleMicros) }
        let commands = Double(result.tallies.map(\.commands).reduce(0, +)) / result.elapsed
        let failures = result.tallies.map(\.failures).reduce(0, +)
        if failures > 0 { Self.note("\(failures) refused commands or failed requests (see the server log)") }
        BenchmarkReport(results: [
            BenchmarkResult(name: "commands", value: commands, unit: "commands/s", baseline: baseline),
            BenchmarkResult(
                name: "p50-ms", value: Double(histogram.valueAtPercentile(50)) / 1000, unit: "ms", baseline: nil),
            BenchmarkResult(
                name: "p99-ms", value: Double(histogram.valueAtPercentile(99)) / 1000, unit: "ms", baseline: nil),
            BenchmarkResult(name: "reads", value: result.reads, unit: "requests/s", baseline: nil),
            BenchmarkResult(name: "memory", value: memory, unit: "MB", baseline: nil),
        ]).print(output.format)
    }

    /// The command phase, then the read phase, against the child server.
    static func drive(client: HTTPClient, port: Int, devices: Int, seconds: Int, secret: [UInt8]) async throws
        -> (tallies: [BenchServeDevice.Tally], elapsed: Double, reads: Double)
    {
        let base = "http://127.0.0.1:\(port)"
        let clients = (0..<devices).map {
            BenchServeDevice(
                client: client, baseURL: base, appID: BenchServeSetup.appID, secret: secret,
                inspector: BenchServeSetup.inspector($0), password: BenchServeSetup.password)
        }
        note("HTTP: \(devices) devices, \(seconds) s of commands")
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        let tallies = try await withThrowingTaskGroup(of: BenchServeDevice.Tally.self) { group in
            for device in clients { group.addTask { try await device.run(until: deadline) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let elapsed = ContinuousClock.now - start
        note("HTTP: \(seconds) s of reads")
        let reads = try await BenchServeReads.run(clients, seconds: seconds)
        return (tallies, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, reads)
    }
}
