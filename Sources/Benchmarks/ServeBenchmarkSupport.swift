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
            _ = try await service.execute(batch: Array(commands[start..<min(start + 1000, commands.count)]))
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

    /// A JSON command object as the server would take it: with the actor set, parsed the same way.
    static func envelope(_ json: String, actor: String) throws -> CommandEnvelope {
        var fields = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        fields["actor"] = actor
        return try CommandEnvelope(
            jsonLine: String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self))
    }
}

/// The baseline: the same device flow through AuditService directly (no HTTP, no signatures).
enum BenchServeBaseline {
    /// Commands applied per second.
    static func run(_ service: AuditService, devices: Int, seconds: Int) async throws -> Double {
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<devices {
                let inspector = BenchServeSetup.inspector(index)
                group.addTask { try await device(service, inspector: inspector, until: deadline) }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = ContinuousClock.now - start
        return Double(total) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    static func device(_ service: AuditService, inspector: String, until deadline: ContinuousClock.Instant)
        async throws -> Int
    {
        var commands = 0
        var round = 0
        while ContinuousClock.now < deadline {
            round += 1
            let plan = BenchServeFlow(inspector: inspector, round: round)
            commands += try await executeRetrying(
                service, [try BenchServeSetup.envelope(plan.allocate, actor: inspector)])
            guard let batch = await service.deviceBatches(inspectorID: inspector, status: 0, mode: nil).first,
                let detail = await service.deviceBatch(batch.batchID)
            else { break }
            let tasks = (detail.tasks ?? []).map { (id: $0.taskID, gtin: $0.gtin) }
            let photos = tasks.map { plan.photo(for: $0.id) }
            for photo in photos { _ = try service.photos.store(photo, contentType: "image/jpeg") }
            for chunk in plan.work(batchID: batch.batchID, tasks: tasks, photos: photos) {
                commands += try await executeRetrying(
                    service, try chunk.map { try BenchServeSetup.envelope($0, actor: inspector) })
            }
        }
        return commands
    }

    /// Runs a bundle, sending it again when other appends kept winning (as a device would).
    static func executeRetrying(_ service: AuditService, _ envelopes: [CommandEnvelope]) async throws -> Int {
        while true {
            do {
                return try await service.execute(batch: envelopes).count
            } catch let error as AuditServiceError where error.code == .tooManyConflicts {
                continue
            }
        }
    }
}

/// The read phase: every device fetches one of its batches with its tasks, as fast as answered.
enum BenchServeReads {
    /// Successful reads per second.
    static func run(_ devices: [BenchServeDevice], seconds: Int) async throws -> Double {
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for device in devices {
                group.addTask {
                    let token = try await device.login()
                    let list = try await device.send(.GET, "/v1/batches", token: token)
                    let id =
                        (BenchServeDevice.object(list.body)["batches"] as? [[String: Any]])?.first?["batchID"]
                        as? String ?? "none"
                    var count = 0
                    while ContinuousClock.now < deadline {
                        if try await device.send(.GET, "/v1/batches/\(id)", token: token).status == 200 { count += 1 }
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = ContinuousClock.now - start
        return Double(total) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
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
