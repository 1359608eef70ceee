import AuditLog
import AuditService
import Foundation
import Inspection
import Logging
import SampleData
import TestSupport
import Testing

@Suite("Workload generator")
struct GeneratorTests {
    static let small = WorkloadGenerator.Configuration(seed: 7, inspectors: 4, locations: 5, products: 250, days: 9)

    static func generate(_ configuration: WorkloadGenerator.Configuration) async throws -> (
        TemporaryDirectory, WorkloadGenerator.Report, InspectionState
    ) {
        let fixture = try TemporaryDirectory(prefix: "sampledata")
        let clock = ManualClock(configuration.start)
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let service = try await AuditService.open(dataDirectory: fixture.url, clock: clock, logger: logger)
        let report = try await WorkloadGenerator(configuration: configuration).run(service: service, clock: clock)
        let state = await service.state
        try await service.close()
        return (fixture, report, state)
    }

    static func segments(_ directory: URL) throws -> [String: Data] {
        let log = DataDirectory(directory).log
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
        let a = try Self.segments(first.url)
        #expect(!a.isEmpty)
        #expect(a == (try Self.segments(second.url)))
        #expect(a != (try Self.segments(third.url)))
        // Realistic, and every generated command fits the state it meets.
        #expect(report.refused == 0, "\(report.refusalSamples)")
        #expect(report.submitted > 10)
        #expect(report.inspected > 100)
        #expect(report.failed > 0 && report.failed < report.inspected / 3)
        // A batch is submitted only with its photos uploaded (photosMissing), and the generator submits.
        #expect(report.photosUploaded == report.photosAttached)
        #expect(state.problems().isEmpty)
        #expect(state.tasks.values.contains { $0.collectionStatus == .skipped })
        // Reopening folds the log back into the same state.
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let reopened = try await AuditService.open(dataDirectory: first.url, logger: logger)
        #expect(await reopened.state == state)
        #expect(await reopened.pendingPhotos().count == report.photosAttached - report.photosUploaded)
        try await reopened.close()
    }
}
