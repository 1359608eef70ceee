import AuditLog
import AuditService
import Foundation
import Inspection
import Logging
import SampleData
import Testing

@Suite("Workload generator")
struct GeneratorTests {
    static let small = WorkloadGenerator.Configuration(seed: 7, inspectors: 4, locations: 5, products: 250, days: 9)

    static func generate(_ configuration: WorkloadGenerator.Configuration) async throws -> (
        ServiceFixture, WorkloadGenerator.Report, InspectionState
    ) {
        let fixture = try ServiceFixture()
        let clock = ManualClock(Timestamp(microsecondsSinceEpoch: configuration.start.microseconds))
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let service = try await AuditService.open(dataDirectory: fixture.directory, clock: clock, logger: logger)
        let report = try await WorkloadGenerator(configuration: configuration).run(service: service, clock: clock)
        let state = await service.state
        try await service.close()
        return (fixture, report, state)
    }

    static func segments(_ directory: URL) throws -> [String: Data] {
        let log = directory.appendingPathComponent("log")
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: log.path) where name.hasPrefix("segment") {
            files[name] = try Data(contentsOf: log.appendingPathComponent(name))
        }
        return files
    }

    @Test("the same seed writes a byte-identical log; another seed does not")
    func deterministic() async throws {
        let (first, report, state) = try await Self.generate(Self.small)
        let (second, _, _) = try await Self.generate(Self.small)
        var other = Self.small
        other.seed = 8
        let (third, _, _) = try await Self.generate(other)
        let a = try Self.segments(first.directory)
        #expect(!a.isEmpty)
        #expect(a == (try Self.segments(second.directory)))
        #expect(a != (try Self.segments(third.directory)))
        // Realistic, and every generated command fits the state it meets.
        #expect(report.refused == 0, "\(report.refusalSamples)")
        #expect(report.submitted > 10)
        #expect(report.inspected > 100)
        #expect(report.failed > 0 && report.failed < report.inspected / 3)
        #expect(report.photosUploaded < report.photosAttached)
        #expect(state.problems().isEmpty)
        #expect(state.tasks.values.contains { $0.collectionStatus == .skipped })
        // Reopening folds the log back into the same state.
        let reopened = try await first.open()
        #expect(await reopened.state == state)
        #expect(await reopened.pendingPhotos().count == report.photosAttached - report.photosUploaded)
        try await reopened.close()
    }
}
