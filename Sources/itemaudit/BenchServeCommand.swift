import ArgumentParser
import Benchmarks
import Foundation

/// `itemaudit bench serve`: the HTTP API under N devices against the same flow through AuditService.
struct BenchServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Benchmark `itemaudit serve`: signed command bundles, latency, reads and memory.",
        discussion: """
            Sets up a catalogue, one inspector per device and a device app in a scratch directory, starts `itemaudit \
            serve` on loopback as a child process and drives N devices, each on one keep-alive HTTP connection \
            (each request written as one buffer, each answer read by its Content-Length, the device's task on that \
            connection's event loop), through the real flow: log in, allocate a batch of five (its id from the \
            allocation's outcome), fetch its tasks, upload a photo per product, then collect, inspect and submit \
            offline, sending the queued commands in bundles of 10 (an allocation goes at once, after what is \
            queued). The baseline runs the same flow through AuditService directly in this process, on its own \
            scratch directory, for the same time in two halves (before the HTTP phases and after the reads, so a \
            shared machine's drift falls on both sides), its read models folded as the server's are. Figures: commands \
            (acknowledged durably per second, ratio against the direct path), p50-ms and p99-ms (bundle latency, \
            HdrHistogram), reads (GET /v1/coverage?by=type per second, N clients as the manager), pages (the \
            manager's dashboard per second, N clients sharing a cookie session from the login form), memory (the \
            server's peak resident MB) and cpu-per-command (the server's CPU microseconds per acknowledged command, \
            against this process's on the direct path: the cost of a command, apart from how much of a shared \
            machine the run was given). Notes on standard error say how many bundles shared each durable group write \
            and how many cores the server and this process's own HTTP client used in each phase (they share the \
            machine; tools/bench/wrk-reads cross-checks reads with wrk).

            With --nodes N --store postgres://…, runs the device flow across N servers sharing one \
            PostgreSQL log (devices spread round-robin over them) against one server on the same \
            cluster as the baseline, each on a scratch database dropped afterwards.

            Example:
              itemaudit bench serve --devices 64 --seconds 10 --format json
              itemaudit bench serve --nodes 2 --store "$(tools/pg-cluster start)" --format table
            """
    )

    @Option(help: "Simulated devices (concurrent clients).") var devices = 64
    @Option(help: "Seconds each phase runs.") var seconds = 10
    @Option(help: "Servers sharing one PostgreSQL log (needs --store).") var nodes = 1
    @Option(help: ArgumentHelp("With --nodes, the PostgreSQL cluster (a libpq URL).", valueName: "url"))
    var store: String?
    @OptionGroup var output: FormatOption

    func validate() throws {
        guard (1...1024).contains(devices) else { throw ValidationError("--devices must be 1 to 1024") }
        guard (1...600).contains(seconds) else { throw ValidationError("--seconds must be 1 to 600") }
        guard (1...16).contains(nodes) else { throw ValidationError("--nodes must be 1 to 16") }
        if nodes > 1 && store == nil {
            throw ValidationError("--nodes \(nodes) needs --store postgres://… (the servers share one database)")
        }
    }

    func run() async throws {
        let scratch = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".itemaudit-bench-serve-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if let store {
            let benchmark: ServeNodesBenchmark
            do {
                benchmark = try ServeNodesBenchmark(
                    nodes: nodes, devices: devices, seconds: seconds, urlText: store, executable: executable,
                    directory: scratch)
            } catch {
                throw CLIFailure.badInput("\(error) (check --store)")
            }
            do {
                let report = try await benchmark.run { FileHandle.standardError.write(Data("bench: \($0)\n".utf8)) }
                report.print(output.format)
            } catch let failure as ServeBenchmark.Failure {
                throw CLIFailure.badInput(failure.description)
            }
            return
        }
        let benchmark = ServeBenchmark(
            devices: devices, seconds: seconds,
            executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(), directory: scratch)
        do {
            let report = try await benchmark.run { FileHandle.standardError.write(Data("bench: \($0)\n".utf8)) }
            report.print(output.format)
        } catch let failure as ServeBenchmark.Failure {
            throw CLIFailure.badInput(failure.description)
        }
    }
}
