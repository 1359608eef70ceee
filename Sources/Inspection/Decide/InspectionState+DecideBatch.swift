import Chronology

extension InspectionState {
    func decideAllocateBatch(
        _ command: AllocateBatch, context: DecisionContext, _ name: String
    ) throws(CommandRefusal) -> Decision {
        let inspector = try allocatingInspector(command.inspectorID, name)
        guard let location = locations[command.locationID] else {
            throw CommandRefusal(
                .notFound, command: name, state: "no location \(command.locationID)",
                reason: "the location is not registered (RegisterLocation first)")
        }
        let allowedKinds: Set<LocationKind> =
            switch command.mode {
            case .wholesale: [.warehouse]
            case .newProduct: [.inspectionCentre]
            case .existingProduct: [.warehouse, .store]
            case .reinspection: [.store, .inspectionCentre]
            case .adHoc: []
            }
        let state = "location \(location.id) (kind \(location.kind.rawValue)), mode \(command.mode.rawValue)"
        guard allowedKinds.contains(location.kind) else {
            let kinds = allowedKinds.map { String($0.rawValue) }.sorted().joined(separator: " or ")
            throw CommandRefusal(
                .invalidInput, command: name, state: state,
                reason: kinds.isEmpty
                    ? "ad-hoc tasks are not allocated in batches (use AllocateAdHocTask)"
                    : "mode \(command.mode.rawValue) runs at locations of kind \(kinds)")
        }
        let policy = context.allocation
        switch (command.quantity, command.minutes) {
        case (let quantity?, nil):
            guard (1...policy.maxBatchSize).contains(quantity) else {
                throw CommandRefusal(
                    .invalidInput, command: name, state: state,
                    reason: "quantity must be 1 to \(policy.maxBatchSize), got \(quantity)")
            }
        case (nil, let minutes?):
            guard (1...7 * 24 * 60).contains(minutes) else {
                throw CommandRefusal(
                    .invalidInput, command: name, state: state, reason: "minutes must be 1 to 10080, got \(minutes)")
            }
        default:
            throw CommandRefusal(
                .invalidInput, command: name, state: state, reason: "give exactly one of quantity or minutes")
        }
        let queue = allocationCandidates(locationID: location.id, mode: command.mode)
        var chosen: [String] = []
        if let quantity = command.quantity {
            chosen = Array(queue.prefix(quantity))
        } else if let minutes = command.minutes {
            var budget = minutes * 10
            for gtin in queue where chosen.count < policy.maxBatchSize {
                let cost = policy.deciminutes(for: products[gtin]?.registration.productType ?? .base)
                if cost <= budget {
                    chosen.append(gtin)
                    budget -= cost
                }
                if budget < policy.deciminutes(for: .case) { break }
            }
        }
        guard !chosen.isEmpty else {
            throw CommandRefusal(
                .invalidState, command: name, state: state,
                reason: "no product is waiting for this mode here (every candidate is held, lacks a datasheet or "
                    + "does not fit the time given)")
        }
        let batchID = "B\(batchCount + 1)"
        let tasks = chosen.enumerated().map {
            AllocatedTask(taskID: "\(batchID)-\($0.offset + 1)", gtin: $0.element)
        }
        let event = BatchAllocated(
            batchID: batchID, inspectorID: inspector.id, locationID: location.id, mode: command.mode,
            requestedQuantity: command.quantity, requestedMinutes: command.minutes,
            expiresAt: context.now.adding(days: policy.expiryDays(for: command.mode)), tasks: tasks)
        return Decision(stream: InspectionStreams.allocations, events: [.batchAllocated(event)])
    }

    func decideAllocateAdHocTask(_ command: AllocateAdHocTask, _ name: String) throws(CommandRefusal) -> Decision {
        let inspector = try allocatingInspector(command.inspectorID, name)
        guard let location = locations[command.locationID], location.kind != .inspectionCentre else {
            throw CommandRefusal(
                .invalidInput, command: name, state: "location \(command.locationID)",
                reason: "ad-hoc inspections happen at a registered store or warehouse")
        }
        let gtin = try normalizedGTIN(command.gtin, field: "gtin", name)
        let product = try product(gtin, name)
        guard product.datasheetID != nil else {
            throw CommandRefusal(
                .invalidState, command: name, state: "product \(gtin) (no datasheet)",
                reason: "a product without a datasheet cannot be inspected (ImportDatasheet first)")
        }
        if let holder = holds[gtin] {
            throw CommandRefusal(
                .invalidState, command: name, state: "product \(gtin) (held by task \(holder))",
                reason: "another open task holds this product")
        }
        let taskID = "A\(adHocCount + 1)"
        return Decision(
            stream: InspectionStreams.allocations,
            events: [
                .adHocTaskAllocated(
                    AdHocTaskAllocated(taskID: taskID, inspectorID: inspector.id, locationID: location.id, gtin: gtin))
            ])
    }

    private func allocatingInspector(_ id: String, _ name: String) throws(CommandRefusal) -> Inspector {
        guard let inspector = inspectors[id] else {
            throw CommandRefusal(
                .notFound, command: name, state: "no inspector \(id)",
                reason: "the inspector is not registered (RegisterInspector first)")
        }
        guard inspector.role != .receiver else {
            throw CommandRefusal(
                .notPermitted, command: name, state: "inspector \(id) (role 1 receiver)",
                reason: "receivers do not inspect; allocate to an inspector or manager")
        }
        return inspector
    }

    // MARK: - Batch transitions

    private func refuse(_ batch: Batch, _ name: String, _ reason: String) -> CommandRefusal {
        CommandRefusal(.invalidState, command: name, state: batch.stateDescription, reason: reason)
    }

    func decideStartCollection(_ command: StartCollection, _ name: String) throws(CommandRefusal) -> Decision {
        let batch = try batch(command.batchID, name)
        guard batch.status == .assigned || (batch.status == .collectionStarted && batch.collectionPaused) else {
            throw refuse(
                batch, name,
                batch.status == .collectionStarted
                    ? "collection is already running" : "collection starts only from status 0 assigned or a pause")
        }
        return Decision(
            stream: InspectionStreams.batch(batch.id),
            events: [.collectionStarted(CollectionStarted(batchID: batch.id))])
    }

    func decidePauseCollection(_ command: PauseCollection, _ name: String) throws(CommandRefusal) -> Decision {
        let batch = try batch(command.batchID, name)
        guard batch.status == .collectionStarted, !batch.collectionPaused else {
            throw refuse(
                batch, name,
                batch.collectionPaused
                    ? "collection is already paused" : "only a running collection (status 1) can pause")
        }
        return Decision(
            stream: InspectionStreams.batch(batch.id), events: [.collectionPaused(CollectionPaused(batchID: batch.id))])
    }

    func decideFinishCollection(_ command: FinishCollection, _ name: String) throws(CommandRefusal) -> Decision {
        let batch = try batch(command.batchID, name)
        guard batch.status == .collectionStarted else {
            throw refuse(batch, name, "collection finishes only while it is in progress (status 1)")
        }
        let pending = batch.taskIDs.filter { tasks[$0]?.collectionStatus == .pendingCollection }
        guard pending.isEmpty else {
            throw refuse(
                batch, name,
                "\(pending.count) task(s) still pending collection (\(pending.prefix(3).joined(separator: ", "))"
                    + "\(pending.count > 3 ? ", …" : "")): collect or skip each first")
        }
        return Decision(
            stream: InspectionStreams.batch(batch.id),
            events: [.collectionFinished(CollectionFinished(batchID: batch.id))])
    }

    func decideCancelCollection(_ command: CancelCollection, _ name: String) throws(CommandRefusal) -> Decision {
        let batch = try batch(command.batchID, name)
        guard batch.status == .collectionStarted else {
            throw refuse(batch, name, "only a collection in progress (status 1) can be cancelled; use CancelBatch")
        }
        return Decision(
            stream: InspectionStreams.batch(batch.id),
            events: [.collectionCancelled(CollectionCancelled(batchID: batch.id))])
    }

    func decideSubmitBatch(_ command: SubmitBatch, _ name: String) throws(CommandRefusal) -> Decision {
        let batch = try batch(command.batchID, name)
        guard batch.status == .readyForSubmission else {
            let reason: String
            switch batch.status {
            case .inspectionCompleted:
                let missing = batch.taskIDs.filter { tasks[$0].map { $0.isInspected && $0.photos.isEmpty } ?? false }
                reason = "every inspected task needs at least one photo; missing on \(missing.joined(separator: ", "))"
            case .submitted: reason = "the batch was already submitted"
            case .cancelled: reason = "the batch was cancelled or expired"
            default: reason = "every task must be resolved (collected and inspected, or skipped) before submission"
            }
            throw refuse(batch, name, reason)
        }
        return Decision(
            stream: InspectionStreams.batch(batch.id), events: [.batchSubmitted(BatchSubmitted(batchID: batch.id))])
    }

    func decideCancelBatch(_ command: CancelBatch, _ name: String) throws(CommandRefusal) -> Decision {
        let batch = try batch(command.batchID, name)
        guard batch.status.isActive else {
            throw refuse(batch, name, "a submitted or cancelled batch cannot be cancelled")
        }
        try requireText(command.reason, field: "reason", name)
        return Decision(
            stream: InspectionStreams.batch(batch.id),
            events: [.batchCancelled(BatchCancelled(batchID: batch.id, reason: command.reason))])
    }

    func decideExpireBatch(
        _ command: ExpireBatch, context: DecisionContext, _ name: String
    ) throws(CommandRefusal) -> Decision {
        let batch = try batch(command.batchID, name)
        guard batch.status.isActive else {
            throw refuse(batch, name, "a submitted or cancelled batch does not expire")
        }
        guard context.now >= batch.expiresAt else {
            throw refuse(batch, name, "the batch expires at \(batch.expiresAt), it is now \(context.now)")
        }
        let open = batch.taskIDs.filter { tasks[$0].map { !$0.isResolved } ?? false }
        return Decision(
            stream: InspectionStreams.batch(batch.id),
            events: [.batchExpired(BatchExpired(batchID: batch.id, releasedTaskIDs: open))])
    }

    /// Batches past their expiry that are not submitted or cancelled, oldest first: what the
    /// system should send ``ExpireBatch`` for.
    public func batchesDueForExpiry(at now: Timestamp) -> [String] {
        batches.values.filter { $0.status.isActive && $0.expiresAt <= now }
            .sorted { ($0.expiresAt, $0.id) < ($1.expiresAt, $1.id) }
            .map(\.id)
    }
}
