import AuditLog
import AuditService
import Foundation
import Inspection
import Logging
import SampleData
import TestSupport
import Testing

/// An interrupted generate resumed: the log ends where the interruption left it (a prefix of whole
/// commands, possibly inside a batch), and the resumed run completes it into the history one
/// uninterrupted run writes.
@Suite("Workload generator: resuming an interrupted run")
struct GeneratorResumeTests {
    static let configuration = WorkloadGenerator.Configuration(
        seed: 5, inspectors: 4, locations: 5, products: 250, days: 9)

    static var logger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return logger
    }

    /// What a log holds, record by record: command, stream, type and payload.
    static func contents(_ directory: URL) throws -> [String] {
        let log = try EventLog.open(
            directory: DataDirectory(directory).log, configuration: .init(readOnly: true), logger: logger)
        defer { try? log.close() }
        var lines: [String] = []
        try log.forEachRecord { record in
            lines.append("\(record.commandID) \(record.streamID) \(record.eventType) \(record.payload)")
        }
        return lines
    }

    /// Copies the first `end` records of the log in `source` into a new log in `target`, command by
    /// command, as an interrupted run leaves them (each command's events whole).
    static func copyPrefix(of source: URL, through end: UInt64, to target: URL) async throws {
        let from = try EventLog.open(
            directory: DataDirectory(source).log, configuration: .init(readOnly: true), logger: logger)
        defer { try? from.close() }
        var appends: [StreamAppend] = []
        var lastRecordedAt = Timestamp(microsecondsSinceEpoch: 0)
        try from.forEachRecord(from: 1, upTo: end) { record in
            let event = ProposedEvent(
                eventType: record.eventType, schemaVersion: record.schemaVersion, occurredAt: record.occurredAt,
                payload: record.payload)
            if let last = appends.last, last.commandID == record.commandID, last.streamID == record.streamID {
                appends[appends.count - 1].events.append(event)
            } else {
                appends.append(
                    StreamAppend(
                        streamID: record.streamID, expected: .any, commandID: record.commandID, actor: record.actor,
                        events: [event], commandFingerprint: record.commandFingerprint))
            }
            lastRecordedAt = record.recordedAt
        }
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let to = try EventLog.open(
            directory: DataDirectory(target).log, clock: ManualClock(lastRecordedAt), logger: logger)
        _ = try await to.append(contentsOf: appends)
        try to.close()
    }

    /// Runs the generator on `directory` (resuming what it holds) and returns its report and state.
    static func run(
        _ configuration: WorkloadGenerator.Configuration, in directory: URL, resume: Bool
    ) async throws -> (WorkloadGenerator.Report, InspectionState) {
        let generator = WorkloadGenerator(configuration: configuration)
        let clock = generator.makeClock()
        let service = try await AuditService.open(dataDirectory: directory, clock: clock, logger: logger)
        do {
            let report = try await generator.run(service: service, clock: clock, resume: resume)
            let state = await service.state
            try await service.close()
            return (report, state)
        } catch {
            try? await service.close()
            throw error
        }
    }

    /// The last position of the command that holds `position` (an interruption ends on a command).
    static func commandEnd(in directory: URL, near position: UInt64) throws -> UInt64 {
        let log = try EventLog.open(
            directory: DataDirectory(directory).log, configuration: .init(readOnly: true), logger: logger)
        defer { try? log.close() }
        var end = position
        var command = ""
        try log.forEachRecord(from: position) { record in
            if command.isEmpty { command = record.commandID }
            if record.commandID == command { end = record.position }
        }
        return end
    }

    @Test(
        "a log cut anywhere between commands is completed into the uninterrupted run's history",
        arguments: [0.05, 0.5, 0.93])
    func resumesAnywhere(fraction: Double) async throws {
        let whole = try TemporaryDirectory(prefix: "resume-whole")
        let (report, state) = try await Self.run(Self.configuration, in: whole.url, resume: false)
        let expected = try Self.contents(whole.url)
        let cut = try Self.commandEnd(in: whole.url, near: UInt64(Double(expected.count) * fraction))
        #expect(cut > 0 && cut < UInt64(expected.count))

        let interrupted = try TemporaryDirectory(prefix: "resume-cut")
        try await Self.copyPrefix(of: whole.url, through: cut, to: interrupted.url)
        let (resumed, resumedState) = try await Self.run(Self.configuration, in: interrupted.url, resume: true)
        #expect(resumedState == state)
        #expect(resumed == report, "the report counts the whole run")
        let contents = try Self.contents(interrupted.url)
        #expect(contents.count == expected.count)
        #expect(contents == expected, "the same events, in the same order")
    }

    @Test("a complete log resumed adds nothing; more days extend it as a longer run would")
    func completeAndExtended() async throws {
        let short = try TemporaryDirectory(prefix: "resume-short")
        _ = try await Self.run(Self.configuration, in: short.url, resume: false)
        let before = try Self.contents(short.url)
        _ = try await Self.run(Self.configuration, in: short.url, resume: true)
        #expect(try Self.contents(short.url) == before)

        var longer = Self.configuration
        longer.days = 12
        let long = try TemporaryDirectory(prefix: "resume-long")
        let (_, longState) = try await Self.run(longer, in: long.url, resume: false)
        let (_, extendedState) = try await Self.run(longer, in: short.url, resume: true)
        #expect(extendedState == longState)
        #expect(try Self.contents(short.url) == (try Self.contents(long.url)))
    }

    @Test("a log written with other options is refused, and nothing is added to it")
    func otherOptionsRefused() async throws {
        let directory = try TemporaryDirectory(prefix: "resume-other")
        _ = try await Self.run(Self.configuration, in: directory.url, resume: false)
        let before = try Self.contents(directory.url)
        var other = Self.configuration
        other.seed = 6
        await #expect(throws: GeneratorResumeError.self) {
            _ = try await Self.run(other, in: directory.url, resume: true)
        }
        var fewer = Self.configuration
        fewer.days = 4
        await #expect(throws: GeneratorResumeError.self) {
            _ = try await Self.run(fewer, in: directory.url, resume: true)
        }
        #expect(try Self.contents(directory.url) == before)
    }
}
