import AsyncHTTPClient
import AuditServer
import AuditService
import Foundation
import Inspection

/// The scratch data of `bench serve`: a store with products and datasheets, one inspector per
/// device (bcrypt cost 4: logins are not what is measured) and one device app.
enum BenchServeSetup {
    static let appID = "bench"
    static let password = "bench password"
    static func inspector(_ index: Int) -> String { "insp-\(index + 1)" }

    static func populate(_ service: AuditService, devices: Int, products: Int, secret: [UInt8]) async throws {
        var commands: [CommandEnvelope] = [
            CommandEnvelope(
                commandID: "setup-location", actor: "bench",
                command: .registerLocation(RegisterLocation(locationID: "S1", name: "Store", kind: .store)))
        ]
        for index in 0..<products {
            let body = String(format: "064%010d", index)
            let digits = body.compactMap(\.wholeNumberValue)
            var sum = 0
            for (offset, digit) in digits.reversed().enumerated() { sum += digit * (offset.isMultiple(of: 2) ? 3 : 1) }
            let gtin = body + String((10 - sum % 10) % 10)
            commands.append(
                CommandEnvelope(
                    commandID: "setup-p\(index)", actor: "bench",
                    command: .registerProduct(
                        RegisterProduct(
                            gtin: gtin, name: "Product \(index)", brand: "B", manufacturer: "M", productType: .base,
                            category: "C", listings: [ProductListing(locationID: "S1", aisle: "A\(index % 40)")]))))
            commands.append(
                CommandEnvelope(
                    commandID: "setup-d\(index)", actor: "bench",
                    command: .importDatasheet(
                        ImportDatasheet(
                            gtin: gtin, datasheetID: "ds\(index)", source: "bench",
                            attributes: BenchServeFlow.attributes.map { DatasheetAttribute(path: $0, value: "v") }))))
        }
        for start in stride(from: 0, to: commands.count, by: 1000) {
            _ = try await service.execute(bundle: Array(commands[start..<min(start + 1000, commands.count)]))
        }
        for index in 0..<devices {
            _ = try await service.addUser(
                username: inspector(index), name: inspector(index), role: .inspector, password: password,
                actor: "bench", commandID: "setup-user-\(index)", cost: 4)
        }
        // The manager whose dashboard the pages phase fetches.
        _ = try await service.addUser(
            username: BenchServePages.manager, name: "Manager", role: .manager, password: password, actor: "bench",
            commandID: "setup-manager", cost: 4)
        _ = try await service.registerApp(
            appID: appID, name: "bench devices", actor: "bench", commandID: "setup-app", secret: secret)
    }

    /// A bundle of JSON command objects as the server takes it: the body a device sends, parsed
    /// the same way, with the actor set.
    static func bundle(_ commands: [String], actor: String) throws -> [CommandEnvelope] {
        let body = Array(#"{"commands":[\#(commands.joined(separator: ","))]}"#.utf8)
        return try body.withUnsafeBytes { try CommandEnvelope.bundle($0, actor: actor, limit: 1000) }
    }
}

/// The baseline: the same device flow through AuditService directly (no HTTP, no signatures).
enum BenchServeBaseline {
    /// What one stretch of the baseline did; stretches add up.
    struct Tally {
        var commands = 0
        var seconds = 0.0
        var cpuSeconds = 0.0
        /// The last round each device reached, so a later stretch goes on with new command ids.
        var rounds: [Int]

        /// Commands applied per second.
        var rate: Double { Double(commands) / max(seconds, 1e-9) }
        /// This process's CPU time per command in microseconds.
        var cpuMicros: Double { cpuSeconds * 1e6 / Double(max(commands, 1)) }
    }

    /// Runs the devices for `duration`, going on from the rounds in `tally`, and adds to it.
    static func run(_ service: AuditService, for duration: Duration, adding tally: inout Tally) async throws {
        let cpuStart = ProcessCPU.seconds()
        let start = ContinuousClock.now
        let deadline = start + duration
        let rounds = tally.rounds
        let results = try await withThrowingTaskGroup(of: (index: Int, commands: Int, round: Int).self) { group in
            for (index, round) in rounds.enumerated() {
                let inspector = BenchServeSetup.inspector(index)
                group.addTask {
                    let reached = try await device(service, inspector: inspector, after: round, until: deadline)
                    return (index, reached.commands, reached.round)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let elapsed = ContinuousClock.now - start
        tally.cpuSeconds += ProcessCPU.seconds() - cpuStart
        tally.seconds += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        for result in results {
            tally.commands += result.commands
            tally.rounds[result.index] = result.round
        }
    }

    /// One device's rounds after round `first` until the deadline: the commands applied and the
    /// last round begun. Commands still queued at the deadline are dropped with their round.
    static func device(
        _ service: AuditService, inspector: String, after first: Int, until deadline: ContinuousClock.Instant
    ) async throws -> (commands: Int, round: Int) {
        var commands = 0
        var queue = BenchServeQueue()
        var round = first
        while ContinuousClock.now < deadline {
            round += 1
            let plan = BenchServeFlow(inspector: inspector, round: round)
            let allocated = try await executeRetrying(
                service, try BenchServeSetup.bundle(queue.flush(adding: plan.allocate), actor: inspector))
            commands += allocated.count
            guard let batchID = allocated.last?.createdID, let detail = await service.deviceBatch(batchID) else {
                break
            }
            let tasks = (detail.tasks ?? []).map { (id: $0.taskID, gtin: $0.gtin) }
            let photos = tasks.map { plan.photo(for: $0.id) }
            for photo in photos { _ = try await service.photos.store(photo.bytes, contentType: "image/jpeg") }
            for full in queue.add(plan.work(batchID: batchID, tasks: tasks, photos: photos)) {
                commands += try await executeRetrying(service, try BenchServeSetup.bundle(full, actor: inspector)).count
            }
        }
        return (commands, round)
    }

    /// Runs a bundle, sending it again when other appends kept winning (as a device would).
    static func executeRetrying(_ service: AuditService, _ envelopes: [CommandEnvelope]) async throws
        -> [CommandOutcome]
    {
        while true {
            do {
                return try await service.execute(bundle: envelopes)
            } catch let error as AuditServiceError where error.code == .tooManyConflicts {
                continue
            }
        }
    }
}

/// The read phase: every client (the manager, logged in once per client) asks for coverage by
/// type (`GET /v1/coverage?by=type`, the office dashboard's read), as fast as answered.
enum BenchServeReads {
    static let path = "/v1/coverage?by=type"

    /// Successful reads per second.
    static func run(_ clients: [BenchServeDevice], seconds: Int) async throws -> Double {
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in clients {
                group.addTask(executorPreference: client.connection.executor) {
                    let token = try await client.login()
                    var count = 0
                    while ContinuousClock.now < deadline {
                        if try await client.send(.GET, path, token: token).status == 200 { count += 1 }
                    }
                    await client.connection.close()
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        guard total > 0 else {
            throw BenchmarkFailure(message: "no GET \(path) was answered 200: the read figure would be meaningless")
        }
        let elapsed = ContinuousClock.now - start
        return Double(total) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// How the server's group writer batched the command phase, from `/metrics`.
    static func groupCommits(client: HTTPClient, baseURL: String) async throws -> String {
        let response = try await client.execute(HTTPClientRequest(url: baseURL + "/metrics"), timeout: .seconds(10))
        let text = String(buffer: try await response.body.collect(upTo: 16 << 20))
        func gauge(_ name: String) -> Int {
            let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
        }
        let (writes, bundles) = (gauge("itemaudit_group_writes"), gauge("itemaudit_group_bundles"))
        return
            "HTTP: \(bundles) bundles in \(writes) group writes (\(String(format: "%.1f", Double(bundles) / Double(max(writes, 1)))) a write, at most \(gauge("itemaudit_group_largest_bundles")))"
    }
}

/// `itemaudit serve --port 0` as a child process, so its memory is its own.
final class BenchServeChild {
    let process = Process()
    let port: Int

    init(executable: URL, data: URL, arguments: [String] = [], environment: [String: String] = [:]) throws {
        process.executableURL = executable
        process.arguments = ["serve", "--data", data.path, "--port", "0", "--log-level", "error"] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"127\.0\.0\.1:\d+"#, options: .regularExpression),
            let port = Int(text[range].split(separator: ":").last ?? "")
        else {
            process.terminate()
            throw ServeBenchmark.Failure(description: "the server did not start: \(text)")
        }
        self.port = port
    }

    /// The child's peak resident set (VmHWM) in MB, or 0 when unreadable.
    func peakResidentMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }

    /// SIGTERM (graceful shutdown), then wait.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

/// CPU time of this process (the bench's own HTTP client, sharing the cores with the server) and
/// of the server child, so each phase can say which side used the machine.
struct BenchServeCPU: Sendable {
    /// The server child's process id.
    let serverPID: Int32

    /// CPU seconds used so far by this process and by the server.
    func sample() -> (client: Double, server: Double) {
        let client = ProcessCPU.seconds()
        // Fields 14 and 15 of /proc/PID/stat: user and system time in clock ticks.
        let stat = (try? String(contentsOfFile: "/proc/\(serverPID)/stat", encoding: .utf8)) ?? ""
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = fields.count > 12 ? (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0) : 0
        return (client, ticks / Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// "PHASE: the server used S cores, this client C cores" from `start` to `end`, over `seconds`.
    func describe(
        _ phase: String, from start: (client: Double, server: Double), to end: (client: Double, server: Double),
        seconds: Double
    ) -> String {
        let server = (end.server - start.server) / seconds
        let client = (end.client - start.client) / seconds
        return "HTTP \(phase): the server used \(String(format: "%.2f", server)) cores, this client "
            + "\(String(format: "%.2f", client)) (both share the machine's cores)"
    }
}
