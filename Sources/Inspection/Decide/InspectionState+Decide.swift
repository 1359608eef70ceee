extension InspectionState {
    /// Decides `command` against this state: the events to append, or a refusal that names the
    /// command, the current state and why.
    ///
    /// Pure: the same state, command and context always give the same answer. The caller appends
    /// the events to ``Decision/stream`` with the stream's expected version, then applies them.
    public func decide(
        _ envelope: CommandEnvelope, context: DecisionContext
    ) throws(CommandRefusal) -> Decision {
        let name = envelope.command.typeName
        // Every command names who sent it and carries an id to answer a resend with.
        for (field, value) in [("commandID", envelope.commandID), ("actor", envelope.actor)] where value.isEmpty {
            throw CommandRefusal(.invalidInput, command: name, state: "-", reason: "'\(field)' must not be empty")
        }
        try requirePlausibleDeviceTime(envelope, context: context, name)
        switch envelope.command {
        case .registerLocation(let command): return try decideRegisterLocation(command, name)
        case .registerInspector(let command): return try decideRegisterInspector(command, name)
        case .registerProduct(let command): return try decideRegisterProduct(command, name)
        case .importDatasheet(let command): return try decideImportDatasheet(command, name)
        case .recordRuleCheck(let command): return try decideRecordRuleCheck(command, name)
        case .receiveProduct(let command): return try decideReceiveProduct(command, actor: envelope.actor, name)
        case .allocateBatch(let command): return try decideAllocateBatch(command, context: context, name)
        case .allocateAdHocTask(let command): return try decideAllocateAdHocTask(command, name)
        case .startCollection(let command): return try decideStartCollection(command, name)
        case .pauseCollection(let command): return try decidePauseCollection(command, name)
        case .finishCollection(let command): return try decideFinishCollection(command, name)
        case .cancelCollection(let command): return try decideCancelCollection(command, name)
        case .collectProduct(let command): return try decideCollectProduct(command, name)
        case .skipCollection(let command): return try decideSkipCollection(command, name)
        case .startInspection(let command): return try decideStartInspection(command, name)
        case .pauseInspection(let command): return try decidePauseInspection(command, name)
        case .recordVerdicts(let command): return try decideRecordVerdicts(command, name)
        case .attachPhoto(let command): return try decideAttachPhoto(command, context: context, name)
        case .detachPhoto(let command): return try decideDetachPhoto(command, name)
        case .finishInspection(let command): return try decideFinishInspection(command, name)
        case .skipInspection(let command): return try decideSkipInspection(command, name)
        case .submitBatch(let command): return try decideSubmitBatch(command, name)
        case .cancelBatch(let command): return try decideCancelBatch(command, name)
        case .expireBatch(let command): return try decideExpireBatch(command, context: context, name)
        }
    }

    /// Decides and, when accepted, applies the events: the in-memory path tests and tools use.
    @discardableResult
    public mutating func execute(
        _ envelope: CommandEnvelope, context: DecisionContext
    ) throws(CommandRefusal) -> Decision {
        let decision = try decide(envelope, context: context)
        let time = envelope.occurredAt ?? context.now
        for event in decision.events { apply(event, at: time) }
        return decision
    }

    /// Refuses (``CommandRefusal/Code/notOwnWork``) a command of `envelope.actor` that acts on a
    /// batch or task held by another inspector, or allocates for another inspector.
    ///
    /// For actors limited to their own work (the service asks it for inspector-role users): call it
    /// on the state the command is decided against, in the same step, so that no other command can
    /// come between the check and the append. Ids that do not exist pass: ``decide(_:context:)``
    /// refuses them.
    public func requireOwnWork(_ envelope: CommandEnvelope) throws(CommandRefusal) {
        let command = envelope.command
        let actor = envelope.actor
        if let inspector = command.allocatedInspectorID, inspector != actor {
            throw CommandRefusal(
                .notOwnWork, command: command.typeName, state: "allocation for inspector \(inspector)",
                reason: "an inspector allocates only for themselves (set inspectorID to \(actor))")
        }
        if let id = command.batchID, let batch = batches[id], batch.inspectorID != actor {
            throw CommandRefusal(
                .notOwnWork, command: command.typeName, state: "batch \(id) of another inspector",
                reason: "only the batch's inspector may act on it")
        }
        if let id = command.taskID, let task = tasks[id], task.inspectorID != actor {
            throw CommandRefusal(
                .notOwnWork, command: command.typeName, state: "task \(id) of another inspector",
                reason: "only the task's inspector may act on it")
        }
    }

    // MARK: - Lookups that refuse with a clear message

    func batch(_ id: String, _ command: String) throws(CommandRefusal) -> Batch {
        guard let batch = batches[id] else {
            throw CommandRefusal(
                .notFound, command: command, state: "no batch \(id)",
                reason: "there is no batch with this id (allocate one with AllocateBatch)")
        }
        return batch
    }

    func task(_ id: String, _ command: String) throws(CommandRefusal) -> Task {
        guard let task = tasks[id] else {
            throw CommandRefusal(
                .notFound, command: command, state: "no task \(id)", reason: "there is no task with this id")
        }
        return task
    }

    func product(_ gtin: String, _ command: String) throws(CommandRefusal) -> Product {
        guard let product = products[gtin] else {
            throw CommandRefusal(
                .notFound, command: command, state: "no product \(gtin)",
                reason: "the product is not registered (send RegisterProduct first)")
        }
        return product
    }

    /// The task's state plus its batch's, for refusals.
    func describe(_ task: Task) -> String {
        guard let batchID = task.batchID, let batch = batches[batchID] else {
            return task.stateDescription + " (ad-hoc)"
        }
        return task.stateDescription + " in " + batch.stateDescription
    }

    /// The stream a task's events go to.
    func stream(of task: Task) -> String {
        task.batchID.map(InspectionStreams.batch) ?? InspectionStreams.adHocTask(task.id)
    }
}
