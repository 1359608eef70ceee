extension InspectionState {
    private func refuse(_ task: Task, _ name: String, _ reason: String) -> CommandRefusal {
        CommandRefusal(.invalidState, command: name, state: describe(task), reason: reason)
    }

    /// The task's batch must be at one of `statuses` (ad-hoc tasks have no batch and pass).
    private func requireBatch(
        of task: Task, in statuses: Set<BatchStatus>, _ name: String, _ reason: String
    ) throws(CommandRefusal) {
        guard let batchID = task.batchID, let batch = batches[batchID] else { return }
        guard statuses.contains(batch.status) else { throw refuse(task, name, reason) }
    }

    func decideCollectProduct(_ command: CollectProduct, _ name: String) throws(CommandRefusal) -> Decision {
        let batch = try batch(command.batchID, name)
        guard batch.status == .collectionStarted, !batch.collectionPaused else {
            throw CommandRefusal(
                .invalidState, command: name, state: batch.stateDescription,
                reason: "products are collected only while collection runs (status 1, not paused)")
        }
        let code: ScanReading
        do {
            code = try ScanReading(command.scanned)
        } catch {
            throw CommandRefusal(.invalidInput, command: name, state: batch.stateDescription, reason: error.message)
        }
        var pending = batch.taskIDs.compactMap { tasks[$0] }.filter { $0.collectionStatus == .pendingCollection }
        if let taskID = command.taskID {
            let task = try task(taskID, name)
            guard task.batchID == batch.id else {
                throw refuse(task, name, "the task belongs to another batch")
            }
            guard task.collectionStatus == .pendingCollection else {
                throw refuse(task, name, "only a task pending collection (1) can be collected")
            }
            pending = [task]
        }
        for gtin in code.candidates {
            if let task = pending.first(where: { matches(scanned: gtin, task: $0) }) {
                return Decision(
                    stream: InspectionStreams.batch(batch.id),
                    events: [
                        .productCollected(
                            ProductCollected(taskID: task.id, scanned: command.scanned, matchedGTIN: gtin))
                    ])
            }
        }
        throw CommandRefusal(
            .invalidInput, command: name, state: batch.stateDescription,
            reason: "scanned GTIN \(code.candidates.joined(separator: " or ")) matches no task pending collection"
                + (command.taskID.map { " (expected task \($0))" } ?? "") + "; check the product and scan again")
    }

    /// Whether a scanned GTIN-14 identifies the task's product: the product itself, the base
    /// unit inside a case task (any of a mixed case's children), or a case holding a base-unit task.
    private func matches(scanned gtin: String, task: Task) -> Bool {
        if task.gtin == gtin { return true }
        if products[task.gtin]?.registration.contains(gtin) == true { return true }
        if products[gtin]?.registration.contains(task.gtin) == true { return true }
        return false
    }

    func decideSkipCollection(_ command: SkipCollection, _ name: String) throws(CommandRefusal) -> Decision {
        let task = try task(command.taskID, name)
        guard task.collectionStatus == .pendingCollection else {
            throw refuse(task, name, "only a task pending collection (1) can be skipped")
        }
        try requireBatch(of: task, in: [.collectionStarted], name, "collection must be running (batch status 1)")
        if let batchID = task.batchID, batches[batchID]?.collectionPaused == true {
            throw refuse(task, name, "collection is paused (StartCollection to resume)")
        }
        return Decision(
            stream: stream(of: task),
            events: [.collectionSkipped(CollectionSkipped(taskID: task.id, reason: command.reason))])
    }

    private func requireReady(_ task: Task, _ name: String) throws(CommandRefusal) {
        guard task.collectionStatus == .collected, task.inspectionStatus == .ready else {
            throw refuse(task, name, "only a collected task ready for inspection (inspection status 1) qualifies")
        }
        try requireBatch(
            of: task, in: [.collectionCompleted, .inspectionStarted], name,
            "inspection begins once collection is completed (batch status 2 or 3)")
    }

    func decideStartInspection(_ command: StartInspection, _ name: String) throws(CommandRefusal) -> Decision {
        let task = try task(command.taskID, name)
        try requireReady(task, name)
        guard task.phase != .inProgress else { throw refuse(task, name, "the inspection is already in progress") }
        return Decision(stream: stream(of: task), events: [.inspectionStarted(InspectionStarted(taskID: task.id))])
    }

    func decidePauseInspection(_ command: PauseInspection, _ name: String) throws(CommandRefusal) -> Decision {
        let task = try task(command.taskID, name)
        try requireReady(task, name)
        guard task.phase == .inProgress else { throw refuse(task, name, "only an inspection in progress can pause") }
        return Decision(stream: stream(of: task), events: [.inspectionPaused(InspectionPaused(taskID: task.id))])
    }

    func decideRecordVerdicts(_ command: RecordVerdicts, _ name: String) throws(CommandRefusal) -> Decision {
        let task = try task(command.taskID, name)
        try requireReady(task, name)
        guard task.phase == .inProgress else {
            throw refuse(task, name, "verdicts are recorded only while the inspection is in progress (StartInspection)")
        }
        guard !command.verdicts.isEmpty else { throw refuse(task, name, "no verdicts given") }
        let product = try product(task.gtin, name)
        var events: [InspectionEvent] = []
        events.reserveCapacity(command.verdicts.count)
        for entry in command.verdicts {
            guard product.attributeSet.contains(entry.path) else {
                throw CommandRefusal(
                    .invalidInput, command: name, state: describe(task),
                    reason:
                        "attribute '\(entry.path)' is not in datasheet \(product.datasheetID ?? "-") of \(task.gtin)")
            }
            events.append(
                .attributeVerdictRecorded(
                    AttributeVerdictRecorded(
                        taskID: task.id, path: entry.path, verdict: entry.verdict, note: entry.note,
                        measuredValue: entry.measuredValue)))
        }
        return Decision(stream: stream(of: task), events: events)
    }

    func decideAttachPhoto(
        _ command: AttachPhoto, context: DecisionContext, _ name: String
    ) throws(CommandRefusal) -> Decision {
        let task = try task(command.taskID, name)
        guard task.collectionStatus == .collected, task.inspectionStatus != .skipped else {
            throw refuse(task, name, "photos are attached to collected tasks that were not skipped")
        }
        try requireBatch(
            of: task, in: [.collectionCompleted, .inspectionStarted, .inspectionCompleted, .readyForSubmission], name,
            "photos are attached between collection and submission (batch status 2 to 5)")
        let hex = command.sha256.utf8
        guard hex.count == 64, hex.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw refuse(task, name, "sha256 must be 64 lower-case hex digits")
        }
        guard command.byteCount > 0, command.byteCount <= context.photos.maxBytes else {
            throw refuse(task, name, "byteCount must be 1 to \(context.photos.maxBytes), got \(command.byteCount)")
        }
        guard context.photos.contentTypes.contains(command.contentType) else {
            throw refuse(
                task, name,
                "content type '\(command.contentType)' is not accepted (use \(context.photos.contentTypes.sorted().joined(separator: ", ")))"
            )
        }
        guard !task.photos.contains(command.sha256) else { throw refuse(task, name, "this photo is already attached") }
        return Decision(
            stream: stream(of: task),
            events: [
                .photoAttached(
                    PhotoAttached(
                        taskID: task.id, sha256: command.sha256, byteCount: command.byteCount,
                        contentType: command.contentType))
            ])
    }

    func decideDetachPhoto(_ command: DetachPhoto, _ name: String) throws(CommandRefusal) -> Decision {
        let task = try task(command.taskID, name)
        try requireBatch(
            of: task, in: [.collectionCompleted, .inspectionStarted, .inspectionCompleted, .readyForSubmission], name,
            "photos are detached only before the batch is submitted (batch status 2 to 5)")
        guard task.photos.contains(command.sha256) else {
            let attached = task.photos.isEmpty ? "none" : task.photos.joined(separator: ", ")
            throw refuse(
                task, name,
                "photo \(command.sha256.prefix(64)) is not attached to task \(task.id) (attached: \(attached))")
        }
        return Decision(
            stream: stream(of: task),
            events: [.photoDetached(PhotoDetached(taskID: task.id, sha256: command.sha256))])
    }

    func decideFinishInspection(_ command: FinishInspection, _ name: String) throws(CommandRefusal) -> Decision {
        let task = try task(command.taskID, name)
        try requireReady(task, name)
        guard task.phase == .inProgress else { throw refuse(task, name, "only an inspection in progress can finish") }
        let product = try product(task.gtin, name)
        guard product.datasheetID != nil else {
            throw refuse(task, name, "product \(task.gtin) has no datasheet (ImportDatasheet first)")
        }
        var passed = 0
        var warnings = 0
        var failures = 0
        var unable = 0
        var missing: [String] = []
        for path in product.attributePaths {
            switch task.verdicts[path] {
            case .passed: passed += 1
            case .warning: warnings += 1
            case .failure: failures += 1
            case .unableToValidate: unable += 1
            case nil: missing.append(path)
            }
        }
        guard missing.isEmpty else {
            throw refuse(
                task, name,
                "\(missing.count) of \(product.attributePaths.count) attributes have no verdict "
                    + "(\(missing.prefix(3).joined(separator: ", "))\(missing.count > 3 ? ", …" : ""))")
        }
        // Every inspection ends with a photo of the product (seed 4.1); a batch's is required at its
        // submission, an ad-hoc task has none, so its own finish asks for it.
        guard task.batchID != nil || !task.photos.isEmpty else {
            throw refuse(task, name, "an ad-hoc inspection ends with a photo of the product (AttachPhoto first)")
        }
        // New products have zero tolerance: a warning fails them too.
        let failed = failures > 0 || (task.mode == .newProduct && warnings > 0)
        let event = InspectionFinished(
            taskID: task.id, result: failed ? .failed : .passed, passedCount: passed, warningCount: warnings,
            failureCount: failures, unableCount: unable)
        return Decision(stream: stream(of: task), events: [.inspectionFinished(event)])
    }

    func decideSkipInspection(_ command: SkipInspection, _ name: String) throws(CommandRefusal) -> Decision {
        let task = try task(command.taskID, name)
        try requireReady(task, name)
        try requireText(command.reason, field: "reason", name)
        return Decision(
            stream: stream(of: task),
            events: [.inspectionSkipped(InspectionSkipped(taskID: task.id, reason: command.reason))])
    }
}
