import AuditService
import Chronology
import Inspection

extension GeneratorRun {
    /// A day of one inspector's work on one batch (or ad-hoc task), as the device would sync it.
    mutating func workCommands(for assignment: Assignment, state: InspectionState, dayStart: Timestamp)
        -> [CommandEnvelope]
    {
        var commands: [CommandEnvelope] = []
        var clock = dayStart.adding(minutes: Int64(random.int(0...30)))
        func add(_ command: InspectionCommand, after minutes: Double) {
            clock = clock.adding(microseconds: Int64(minutes * 60_000_000))
            commands.append(
                CommandEnvelope(
                    commandID: nextCommandID(), actor: assignment.inspector, occurredAt: clock, command: command))
        }
        if let taskID = assignment.adHocTaskID, let task = state.tasks[taskID] {
            inspect(task, state: state, add: &commands, clock: &clock, inspector: assignment.inspector)
            return commands
        }
        guard let batchID = assignment.batchID, let batch = state.batches[batchID] else { return [] }
        let tasks = batch.taskIDs.compactMap { state.tasks[$0] }
        add(.startCollection(StartCollection(batchID: batchID)), after: 5)
        if random.chance(0.01) {
            add(.cancelCollection(CancelCollection(batchID: batchID)), after: 20)
            return commands
        }
        var collected: [InspectionState.Task] = []
        let pauseAt = random.chance(0.1) ? random.int(0...(tasks.count - 1)) : -1
        for (index, task) in tasks.enumerated() {
            if index == pauseAt {
                add(.pauseCollection(PauseCollection(batchID: batchID)), after: 1)
                add(.startCollection(StartCollection(batchID: batchID)), after: 25)
            }
            if random.chance(0.06) {
                let roll = random.int(0...9)
                let reason: SkipReason = roll < 5 ? .outOfStock : roll < 8 ? .unableToCollect : .noLongerAvailable
                add(.skipCollection(SkipCollection(taskID: task.id, reason: reason)), after: 2)
            } else {
                add(
                    .collectProduct(CollectProduct(batchID: batchID, scanned: scan(task.gtin, state: state))),
                    after: 1.5)
                collected.append(task)
            }
        }
        add(.finishCollection(FinishCollection(batchID: batchID)), after: 3)
        for task in collected {
            inspect(task, state: state, add: &commands, clock: &clock, inspector: assignment.inspector)
        }
        let roll = random.int(0...99)
        if roll < 90 {
            add(.submitBatch(SubmitBatch(batchID: batchID)), after: 5)
        } else if roll < 93 {
            add(.cancelBatch(CancelBatch(batchID: batchID, reason: "inspector reassigned")), after: 5)
        }  // Otherwise left open: the batch expires after four days.
        return commands
    }

    /// What a scanner reads from the product: EAN-13 or UPC-A on base units, GS1-128 or ITF-14 on cases.
    private mutating func scan(_ gtin: String, state: InspectionState) -> String {
        let type = state.products[gtin]?.registration.productType ?? .base
        if type == .base {
            return gtin.hasPrefix("00") ? String(gtin.dropFirst(2)) : String(gtin.dropFirst())
        }
        switch random.int(0...2) {
        case 0:
            return
                "(01)\(gtin)(10)L\(random.digits(5))(15)\(26)\(random.pick(["03", "06", "09", "12"]))\(random.int(10...28))"
        case 1: return "]C101\(gtin)10LOT\(random.digits(4))\u{1D}17\(27)\(random.pick(["01", "04", "07"]))15"
        default: return gtin
        }
    }

    /// Inspect one collected task: verdicts (sometimes with a pause), photos, finish; rarely skipped.
    private mutating func inspect(
        _ task: InspectionState.Task, state: InspectionState, add commands: inout [CommandEnvelope],
        clock: inout Timestamp,
        inspector: String
    ) {
        func add(_ command: InspectionCommand, after minutes: Double) {
            clock = clock.adding(microseconds: Int64(minutes * 60_000_000))
            commands.append(
                CommandEnvelope(commandID: nextCommandID(), actor: inspector, occurredAt: clock, command: command))
        }
        guard let product = state.products[task.gtin] else { return }
        let minutes = product.registration.productType == .base ? 15.0 : 4.5
        if random.chance(0.02) {
            add(.skipInspection(SkipInspection(taskID: task.id, reason: "packaging damaged in transport")), after: 2)
            return
        }
        add(.startInspection(StartInspection(taskID: task.id)), after: 1)
        let verdicts = verdictEntries(for: product)
        if random.chance(0.12), verdicts.count > 2 {
            let half = verdicts.count / 2
            add(
                .recordVerdicts(RecordVerdicts(taskID: task.id, verdicts: Array(verdicts[..<half]))), after: minutes / 2
            )
            add(.pauseInspection(PauseInspection(taskID: task.id)), after: 0.5)
            add(.startInspection(StartInspection(taskID: task.id)), after: 10)
            add(
                .recordVerdicts(RecordVerdicts(taskID: task.id, verdicts: Array(verdicts[half...]))), after: minutes / 2
            )
        } else {
            add(.recordVerdicts(RecordVerdicts(taskID: task.id, verdicts: verdicts)), after: minutes * 0.8)
        }
        for _ in 0..<(random.chance(0.3) ? 2 : 1) {
            let photo = syntheticPhoto()
            // The draw that once left 3 % of photos pending stays, so a seeded history keeps its
            // events: a batch is submitted only once its photos are uploaded (`photosMissing`).
            _ = random.chance(0.97)
            if (try? service.photos.store(photo, contentType: "image/png", durable: false)) != nil {
                report.photosUploaded += 1
            }
            add(
                .attachPhoto(
                    AttachPhoto(
                        taskID: task.id, sha256: PhotoStore.sha256(photo), byteCount: photo.count,
                        contentType: "image/png")),
                after: 1)
        }
        add(.finishInspection(FinishInspection(taskID: task.id)), after: minutes * 0.1)
    }

    /// One verdict per datasheet attribute, shaped by the product's data quality.
    private mutating func verdictEntries(for product: InspectionState.Product) -> [VerdictEntry] {
        let quality = catalogue.quality[product.gtin] ?? 0
        var entries = product.attributePaths.map { path in
            VerdictEntry(path: path, verdict: random.chance(0.04) ? .unableToValidate : .passed)
        }
        guard quality > 0, !entries.isEmpty else { return entries }
        for _ in 0..<random.int(1...3) {
            let index = random.int(0...(entries.count - 1))
            let failure = quality == 2 && random.chance(0.7)
            entries[index].verdict = failure ? .failure : .warning
            entries[index].note = failure ? "does not match the package" : "minor difference"
            entries[index].measuredValue = "measured-\(random.digits(3))"
        }
        return entries
    }

    /// A small synthetic image: a PNG of random gray pixels (``SyntheticImage``), unique per
    /// photo, that a browser draws as a thumbnail. Draws the same random numbers as before it
    /// was an image, so the rest of a seeded history is unchanged.
    private mutating func syntheticPhoto() -> [UInt8] {
        var pixels: [UInt8] = []
        let count = random.int(256...768)
        pixels.reserveCapacity(count)
        for _ in 0..<(count / 8) {
            withUnsafeBytes(of: random.next()) { pixels.append(contentsOf: $0) }
        }
        return SyntheticImage.png(pixels: pixels)
    }
}
