import AuditLog
import AuditService
import Chronology
import Datasheets
import Inspection
import Rules
import Seeded

/// Generates a realistic inspection history by driving the real command path of an
/// ``AuditService``: catalogue, receptions, allocations, collection, verdicts, photos,
/// submissions, cancellations and expiries, day by day.
///
/// The same configuration (seed included) produces the same log, byte for byte: the service
/// must run on the `ManualClock` given here, which the generator moves through simulated time.
public struct WorkloadGenerator: Sendable {
    /// What to generate.
    public struct Configuration: Sendable, Hashable {
        /// The seed; the same seed gives the same log.
        public var seed: UInt64
        /// Inspectors (a receiver and a manager are added).
        public var inspectors: Int
        /// Locations: one inspection centre, about a third warehouses, the rest stores.
        public var locations: Int
        /// Catalogue size (about 65 % base units, 30 % cases, 5 % pallets).
        public var products: Int
        /// Calendar days simulated (work happens on weekdays).
        public var days: Int
        /// The first simulated day (midnight UTC); 2026-01-05 is a Monday.
        public var start: Timestamp

        public init(
            seed: UInt64 = 1, inspectors: Int = 12, locations: Int = 8, products: Int = 5000, days: Int = 90,
            start: Timestamp = Timestamp(microsecondsSinceEpoch: 1_767_571_200_000_000)
        ) {
            self.seed = seed
            self.inspectors = inspectors
            self.locations = locations
            self.products = products
            self.days = days
            self.start = start
        }
    }

    /// A clock standing at the first simulated day: the service the generator drives must run on it.
    public func makeClock() -> ManualClock {
        ManualClock(configuration.start)
    }

    /// What was generated.
    public struct Report: Sendable, Hashable {
        /// Commands sent through the service.
        public var commands = 0
        /// Commands accepted.
        public var accepted = 0
        /// Commands refused (the generator aims for none; a refusal is worth a look).
        public var refused = 0
        /// The first few refusals, for diagnosis.
        public var refusalSamples: [String] = []
        /// Events in the log afterwards.
        public var events: UInt64 = 0
        /// Batches allocated, submitted, cancelled and expired.
        public var batches = 0
        public var submitted = 0
        public var cancelled = 0
        public var expired = 0
        /// Tasks inspected to a result, and how many failed.
        public var inspected = 0
        public var failed = 0
        /// Photos attached, and how many images were uploaded (all: submission needs them).
        public var photosAttached = 0
        public var photosUploaded = 0
        /// Simulated working days.
        public var workdays = 0
    }

    /// The configuration.
    public let configuration: Configuration

    public init(configuration: Configuration) { self.configuration = configuration }

    /// Runs the simulation against `service`, which must be open with `clock` as its clock, on an
    /// empty data directory or — with `resume` — on one holding the start of this very run (an
    /// interrupted generate with the same configuration; `days` may be more).
    ///
    /// Resuming replays the run's own commands against a local state up to the log's end, checks
    /// that state equals the service's, and sends the rest: the log then holds the same events as
    /// one uninterrupted run, and the report counts the whole run.
    /// `progress` is told the number of days simulated so far and the total, after each day.
    /// - Throws: ``AuditServiceError`` when the service fails (refusals are counted, not thrown);
    ///   ``GeneratorResumeError`` when the log is not the start of this run.
    public func run(
        service: AuditService, clock: ManualClock, resume: Bool = false,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> Report {
        let ruleEngine = try BuiltInRuleSets.engine()
        var run = GeneratorRun(configuration: configuration, service: service, clock: clock, ruleEngine: ruleEngine)
        if resume, service.lastPosition > 0 {
            run.replay = GeneratorReplay(state: InspectionState(), end: service.lastPosition)
        }
        try await run.setUp()
        for day in 0..<configuration.days {
            try await run.simulate(day: day)
            progress(day + 1, configuration.days)
        }
        if run.replay != nil {
            throw GeneratorResumeError(
                description:
                    "the log holds more events (\(service.lastPosition)) than this configuration generates: it was written with other options (more --days?)"
            )
        }
        return await run.finish()
    }
}

/// The mutable state of one generator run.
struct GeneratorRun {
    let configuration: WorkloadGenerator.Configuration
    let service: AuditService
    let clock: ManualClock
    var random: SeededRandom
    /// The shared datasheet generator: the same datasheets the rule checks and benchmarks use.
    var datasheets: DatasheetGenerator
    let ruleEngine: RuleEngine
    var report = WorkloadGenerator.Report()
    var catalogue = GeneratedCatalogue()
    var commandCount = 0
    /// While resuming: the replay of the commands the log holds already (see `GeneratorReplay`).
    var replay: GeneratorReplay?

    init(
        configuration: WorkloadGenerator.Configuration, service: AuditService, clock: ManualClock,
        ruleEngine: RuleEngine
    ) {
        self.configuration = configuration
        self.service = service
        self.clock = clock
        self.ruleEngine = ruleEngine
        random = SeededRandom(seed: configuration.seed &* 0x2545_F491_4F6C_DD1D &+ 1)
        datasheets = DatasheetGenerator(seed: configuration.seed &+ 0x5EED, defectRate: 0.12)
    }

    /// Sets the server clock.
    func setClock(_ time: Timestamp) { clock.set(time) }

    /// A deterministic command id.
    mutating func nextCommandID() -> String {
        commandCount += 1
        return "gen-\(configuration.seed)-\(commandCount)"
    }

    /// Sends `commands` as one batch and counts the outcomes (while resuming, those the log holds
    /// already are replayed instead, see `GeneratorReplay`).
    mutating func send(_ commands: [CommandEnvelope]) async throws {
        let rest = try await replayPrefix(commands)
        guard !rest.isEmpty else { return }
        let outcomes = try await service.execute(bundle: Array(rest))
        report.commands += rest.count
        for outcome in outcomes {
            switch outcome.status {
            case .accepted, .duplicate: report.accepted += 1
            case .refused:
                report.refused += 1
                if report.refusalSamples.count < 5 { report.refusalSamples.append(outcome.summary) }
            }
        }
    }

    mutating func finish() async -> WorkloadGenerator.Report {
        let state = await service.state
        report.events = service.lastPosition
        report.batches = state.batches.count
        for batch in state.batches.values {
            if batch.status == .submitted { report.submitted += 1 }
            if batch.status == .cancelled { if batch.expired { report.expired += 1 } else { report.cancelled += 1 } }
        }
        for task in state.tasks.values {
            if task.isInspected { report.inspected += 1 }
            if task.inspectionStatus == .failed { report.failed += 1 }
            report.photosAttached += task.photos.count
        }
        return report
    }
}
