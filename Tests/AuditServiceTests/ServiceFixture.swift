import AuditLog
import AuditService
import Foundation
import Inspection
import Logging
import TestSupport
import Testing

/// A fresh data directory per test, removed afterwards, and a manual clock.
final class ServiceFixture: Sendable {
    private let temporary: TemporaryDirectory
    let clock = ManualClock(Timestamp(microsecondsSinceEpoch: 1_772_438_400_000_000))  // 2026-03-02T08:00Z

    /// The data directory (removed with the fixture).
    var directory: URL { temporary.url }

    init() throws {
        temporary = try TemporaryDirectory(prefix: "auditservice")
    }

    func open() async throws -> AuditService {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return try await AuditService.open(dataDirectory: directory, clock: clock, logger: logger)
    }

    /// Closes `service`, opens the data again and expects the state folded from the log to equal
    /// the one `service` kept live.
    func expectReopenedStateEqualsLive(_ service: AuditService) async throws {
        let live = await service.state
        try await service.close()
        let reopened = try await open()
        #expect(await reopened.state == live, "the state equals the fold of the log")
        try await reopened.close()
    }
}

private let gtinBodies = ["641234500100", "641234500101", "641234500102", "641234500103"]

/// A valid GTIN-14 for index `i` (base units of a test catalogue).
func testGTIN(_ i: Int) -> String {
    let body = "0" + gtinBodies[i]
    let digits = body.compactMap { $0.wholeNumberValue }
    var sum = 0
    for (offset, digit) in digits.reversed().enumerated() { sum += digit * (offset.isMultiple(of: 2) ? 3 : 1) }
    return body + String((10 - sum % 10) % 10)
}

let attributePaths = ["name/fi", "net/content", "allergens"]

/// Registration commands for a store, two inspectors and four products with datasheets.
func catalogueCommands() -> [CommandEnvelope] {
    var commands: [InspectionCommand] = [
        .registerLocation(RegisterLocation(locationID: "S1", name: "Store", kind: .store)),
        .registerInspector(RegisterInspector(inspectorID: "i1", name: "Ann", role: .inspector)),
        .registerInspector(RegisterInspector(inspectorID: "i2", name: "Ben", role: .inspector)),
    ]
    for index in 0..<4 {
        commands.append(
            .registerProduct(
                RegisterProduct(
                    gtin: testGTIN(index), name: "P\(index)", brand: "B", manufacturer: "M", productType: .base,
                    category: "C", listings: [ProductListing(locationID: "S1", aisle: "A")])))
        commands.append(
            .importDatasheet(
                ImportDatasheet(
                    gtin: testGTIN(index), datasheetID: "ds\(index)", source: "t",
                    attributes: attributePaths.map { DatasheetAttribute(path: $0, value: "v") })))
    }
    return commands.enumerated().map {
        CommandEnvelope(commandID: "setup-\($0.offset)", actor: "admin", command: $0.element)
    }
}

/// Numbered envelopes for one actor (`c1`, `c2`, …): what a device sends in a test's walk.
final class Envelopes {
    private let prefix: String
    private let actor: String
    private var count = 0

    init(prefix: String, actor: String) {
        self.prefix = prefix
        self.actor = actor
    }

    func callAsFunction(_ command: InspectionCommand) -> CommandEnvelope {
        count += 1
        return CommandEnvelope(commandID: "\(prefix)\(count)", actor: actor, command: command)
    }
}
