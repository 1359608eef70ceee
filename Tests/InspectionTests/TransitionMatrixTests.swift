import Inspection
import Testing

/// Every batch and task command in every state: allowed, or refused naming the command, the
/// state and why.
@Suite("Transition matrix")
struct TransitionMatrixTests {
    /// Named batch situations, each reached through real commands. The batch has two base-unit
    /// tasks at the store: task 1 is collected and inspected, task 2 is skipped at collection.
    enum BatchSituation: String, CaseIterable, Sendable {
        case assigned, collecting, collectingPaused, collectingDone, collected, inspecting, inspected, ready, submitted
        case cancelled, expired

        var status: BatchStatus {
            switch self {
            case .assigned: .assigned
            case .collecting, .collectingPaused, .collectingDone: .collectionStarted
            case .collected: .collectionCompleted
            case .inspecting: .inspectionStarted
            case .inspected: .inspectionCompleted
            case .ready: .readyForSubmission
            case .submitted: .submitted
            case .cancelled, .expired: .cancelled
            }
        }
    }

    static func reach(_ situation: BatchSituation) throws -> (TestWorld, batch: String, first: String, second: String) {
        var world = try Catalogue.build(bases: 2, cases: 0)
        let batch = try BatchWalk.allocate(&world, location: Catalogue.store, mode: .existingProduct, quantity: 2)
        let tasks = world.state.batches[batch]?.taskIDs ?? []
        let (first, second) = (tasks[0], tasks[1])
        let steps: [InspectionCommand] = [
            .startCollection(StartCollection(batchID: batch)),
            .collectProduct(CollectProduct(batchID: batch, scanned: world.state.tasks[first]?.gtin ?? "")),
            .skipCollection(SkipCollection(taskID: second, reason: .outOfStock)),
            .finishCollection(FinishCollection(batchID: batch)),
            .startInspection(StartInspection(taskID: first)),
            .recordVerdicts(RecordVerdicts(taskID: first, verdicts: Catalogue.verdicts())),
            .finishInspection(FinishInspection(taskID: first)),
            .attachPhoto(
                AttachPhoto(taskID: first, sha256: SampleEvents.sha, byteCount: 10, contentType: "image/jpeg")),
            .submitBatch(SubmitBatch(batchID: batch)),
        ]
        let count: Int
        switch situation {
        case .assigned, .cancelled, .expired: count = 0
        case .collecting, .collectingPaused: count = 1
        case .collectingDone: count = 3
        case .collected: count = 4
        case .inspecting: count = 6
        case .inspected: count = 7
        case .ready: count = 8
        case .submitted: count = 9
        }
        for step in steps.prefix(count) { try world.run(step) }
        switch situation {
        case .collectingPaused: try world.run(.pauseCollection(PauseCollection(batchID: batch)))
        case .cancelled: try world.run(.cancelBatch(CancelBatch(batchID: batch, reason: "test")))
        case .expired:
            world.now = world.now.adding(days: 5)
            try world.run(.expireBatch(ExpireBatch(batchID: batch)))
        default: break
        }
        #expect(world.state.batches[batch]?.status == situation.status, "\(situation)")
        #expect(world.state.problems().isEmpty)
        return (world, batch, first, second)
    }

    /// The batch commands and the situations in which each is allowed.
    static let batchCommands:
        [(name: String, make: @Sendable (String, String) -> InspectionCommand, allowed: Set<BatchSituation>)] = [
            (
                "StartCollection", { b, _ in .startCollection(StartCollection(batchID: b)) },
                [.assigned, .collectingPaused]
            ),
            (
                "PauseCollection", { b, _ in .pauseCollection(PauseCollection(batchID: b)) },
                [.collecting, .collectingDone]
            ),
            ("FinishCollection", { b, _ in .finishCollection(FinishCollection(batchID: b)) }, [.collectingDone]),
            (
                "CancelCollection", { b, _ in .cancelCollection(CancelCollection(batchID: b)) },
                [.collecting, .collectingPaused, .collectingDone]
            ),
            (
                "CollectProduct", { b, gtin in .collectProduct(CollectProduct(batchID: b, scanned: gtin)) },
                [.collecting]
            ),
            ("SubmitBatch", { b, _ in .submitBatch(SubmitBatch(batchID: b)) }, [.ready]),
            (
                "CancelBatch", { b, _ in .cancelBatch(CancelBatch(batchID: b, reason: "r")) },
                [
                    .assigned, .collecting, .collectingPaused, .collectingDone, .collected, .inspecting, .inspected,
                    .ready,
                ]
            ),
            (
                "ExpireBatch", { b, _ in .expireBatch(ExpireBatch(batchID: b)) },
                [
                    .assigned, .collecting, .collectingPaused, .collectingDone, .collected, .inspecting, .inspected,
                    .ready,
                ]
            ),
        ]

    @Test("batch commands in every batch status", arguments: BatchSituation.allCases)
    func batchCommandsEverywhere(_ situation: BatchSituation) throws {
        var (world, batch, first, _) = try Self.reach(situation)
        world.now = world.now.adding(days: 5)  // past expiry, so ExpireBatch depends only on status
        let gtin = world.state.tasks[first]?.gtin ?? ""
        for command in Self.batchCommands {
            let result = world.decide(command.make(batch, gtin))
            let allowed = command.allowed.contains(situation)
            switch result {
            case .success(let decision):
                #expect(allowed, "\(command.name) in \(situation) should be refused but gave \(decision.events)")
                var copy = world
                try copy.run(command.make(batch, gtin))
                #expect(copy.state.problems().isEmpty, "\(command.name) in \(situation): \(copy.state.problems())")
            case .failure(let refusal):
                #expect(!allowed, "\(command.name) in \(situation) should be allowed: \(refusal)")
                #expect(refusal.command == command.name)
                #expect(refusal.state.contains("status \(situation.status.label)"), "\(refusal)")
                #expect(!refusal.reason.isEmpty)
                #expect(refusal.description.hasPrefix("\(command.name) refused: batch \(batch)"))
            }
        }
    }

    /// Task situations of the first task (or the skipped second one).
    enum TaskSituation: String, CaseIterable, Sendable {
        case pending, readyNotStarted, inProgress, paused, passed, passedSubmitted, inspectionSkipped, collectionSkipped
        case released
    }

    static func reach(_ situation: TaskSituation) throws -> (TestWorld, task: String) {
        switch situation {
        case .pending:
            let (world, _, first, _) = try reach(.collecting)
            return (world, first)
        case .readyNotStarted:
            let (world, _, first, _) = try reach(.collected)
            return (world, first)
        case .inProgress, .paused, .inspectionSkipped:
            var (world, _, first, _) = try reach(.collected)
            try world.run(.startInspection(StartInspection(taskID: first)))
            if situation == .paused { try world.run(.pauseInspection(PauseInspection(taskID: first))) }
            if situation == .inspectionSkipped {
                try world.run(.skipInspection(SkipInspection(taskID: first, reason: "r")))
            }
            return (world, first)
        case .passed:
            let (world, _, first, _) = try reach(.inspected)
            return (world, first)
        case .passedSubmitted:
            let (world, _, first, _) = try reach(.submitted)
            return (world, first)
        case .collectionSkipped:
            let (world, _, _, second) = try reach(.collected)
            return (world, second)
        case .released:
            let (world, _, first, _) = try reach(.cancelled)
            return (world, first)
        }
    }

    static let otherSHA = String(repeating: "cd", count: 32)
    static let taskCommands:
        [(name: String, make: @Sendable (String) -> InspectionCommand, allowed: Set<TaskSituation>)] = [
            ("SkipCollection", { .skipCollection(SkipCollection(taskID: $0, reason: .unableToCollect)) }, [.pending]),
            ("StartInspection", { .startInspection(StartInspection(taskID: $0)) }, [.readyNotStarted, .paused]),
            ("PauseInspection", { .pauseInspection(PauseInspection(taskID: $0)) }, [.inProgress]),
            (
                "RecordVerdicts", { .recordVerdicts(RecordVerdicts(taskID: $0, verdicts: Catalogue.verdicts())) },
                [.inProgress]
            ),
            (
                "AttachPhoto",
                { .attachPhoto(AttachPhoto(taskID: $0, sha256: otherSHA, byteCount: 5, contentType: "image/png")) },
                [.readyNotStarted, .inProgress, .paused, .passed]
            ),
            // A photo this task does not hold: refused everywhere (DetachPhotoTests detaches one it holds).
            ("DetachPhoto", { .detachPhoto(DetachPhoto(taskID: $0, sha256: otherSHA)) }, []),
            ("FinishInspection", { .finishInspection(FinishInspection(taskID: $0)) }, []),
            (
                "SkipInspection", { .skipInspection(SkipInspection(taskID: $0, reason: "r")) },
                [.readyNotStarted, .inProgress, .paused]
            ),
        ]

    @Test("task commands in every task status", arguments: TaskSituation.allCases)
    func taskCommandsEverywhere(_ situation: TaskSituation) throws {
        let (world, task) = try Self.reach(situation)
        let described = world.state.tasks[task]?.stateDescription ?? ""
        for command in Self.taskCommands {
            let result = world.decide(command.make(task))
            // FinishInspection without verdicts is always refused; with them see the next test.
            let allowed = command.allowed.contains(situation)
            switch result {
            case .success(let decision):
                #expect(allowed, "\(command.name) on \(situation) should be refused but gave \(decision.events)")
            case .failure(let refusal):
                #expect(!allowed, "\(command.name) on \(situation) should be allowed: \(refusal)")
                #expect(refusal.command == command.name)
                #expect(refusal.state.hasPrefix(described), "\(refusal.state) vs \(described)")
            }
        }
    }

    @Test("finishing needs a verdict on every datasheet attribute")
    func finishNeedsEveryVerdict() throws {
        var (world, task) = try Self.reach(.inProgress)
        let partial = Array(Catalogue.verdicts().dropLast())
        try world.run(.recordVerdicts(RecordVerdicts(taskID: task, verdicts: partial)))
        guard case .failure(let refusal) = world.decide(.finishInspection(FinishInspection(taskID: task))) else {
            Issue.record("finishing with a missing verdict was accepted")
            return
        }
        #expect(refusal.reason.contains("1 of 5 attributes have no verdict (dimensions/height)"))
        try world.run(
            .recordVerdicts(
                RecordVerdicts(taskID: task, verdicts: Catalogue.verdicts(.passed, except: ["allergens": .warning]))))
        try world.run(.finishInspection(FinishInspection(taskID: task)))
        #expect(world.state.tasks[task]?.inspectionStatus == .passed)  // a warning passes outside new-product mode
    }

    @Test("an unknown attribute path is refused")
    func unknownPath() throws {
        let (world, task) = try Self.reach(.inProgress)
        let result = world.decide(
            .recordVerdicts(RecordVerdicts(taskID: task, verdicts: [VerdictEntry(path: "nope", verdict: .passed)])))
        guard case .failure(let refusal) = result else {
            Issue.record("unknown path accepted")
            return
        }
        #expect(refusal.reason.contains("'nope' is not in datasheet"))
    }

    @Test("submission needs a photo on every inspected task")
    func submissionNeedsPhoto() throws {
        let (world, batch, first, _) = try Self.reach(.inspected)
        guard case .failure(let refusal) = world.decide(.submitBatch(SubmitBatch(batchID: batch))) else {
            Issue.record("submitted without a photo")
            return
        }
        #expect(refusal.reason.contains("missing on \(first)"))
    }
}
