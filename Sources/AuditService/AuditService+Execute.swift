import AuditLog
import Inspection

extension AuditService {
    /// Runs one command: decide against the current state, append with the stream's expected
    /// version and the command id, fold the events in.
    ///
    /// A repeated command id returns the original result (status `.duplicate`), appending nothing.
    /// When another append to the same stream wins meanwhile, the service catches up and decides
    /// again: if the command still holds it is appended, otherwise it is refused.
    /// - Throws: ``AuditServiceError`` when the log fails (refusals are outcomes, not errors).
    public func execute(_ envelope: CommandEnvelope) async throws -> CommandOutcome {
        var conflicts = 0
        var refolds = 0
        while conflicts < max(1, configuration.maxAttempts) {
            if let outcome = try await repeatOutcome(envelope) { return outcome }
            let basis = appliedPosition
            let decision: Decision
            do {
                decision = try state.decide(envelope, context: context)
            } catch {
                // Refuse only on the store's latest state: fold what others appended, decide again.
                _ = try? await log.refresh()
                if log.lastPosition > appliedPosition, refolds < Self.maximumRefolds {
                    refolds += 1
                    try catchUp()
                    continue
                }
                return refused(envelope, error)
            }
            // The expected version is the store's, valid only if the state decided on holds every
            // event of the stream; otherwise fold what is missing and decide again.
            let stream = try await streamState(of: decision.stream)
            guard appliedPosition == basis, stream.reachesUpTo <= basis else {
                refolds += 1
                guard refolds <= Self.maximumRefolds else { break }
                try await catchUp(through: stream.reachesUpTo)
                continue
            }
            let append = proposed(envelope, decision, expected: stream.version)
            let result: AppendResult
            do {
                result = try await self.append([append])[0]
            } catch let error as EventLogError where error.code == .commandIDReused {
                return reused(envelope, error.context["positions"] ?? "?")
            } catch let error as EventLogError where error.code == .versionConflict {
                logger.debug("append conflict; deciding again", metadata: ["stream": "\(decision.stream)"])
                conflicts += 1
                conflictRetries += 1
                // The winner's records may not be folded yet: wait for its append, not a timer.
                try await awaitWinner(on: decision.stream)
                continue
            } catch {
                throw AuditServiceError.store(error, "cannot append", context: ["commandID": envelope.commandID])
            }
            if !result.wasDuplicate, appliedPosition == basis, result.positions.lowerBound == basis + 1 {
                fold(decision, result, at: envelope.occurredAt ?? now)
            } else {
                try catchUp()
            }
            await notifyObservers()
            return outcome(envelope, decision, result)
        }
        throw AuditServiceError(
            .tooManyConflicts,
            "other appends to the same stream kept winning; the command was not applied (send it again)",
            context: ["commandID": envelope.commandID])
    }

    /// How often one command folds and decides again because the state was behind the store.
    static let maximumRefolds = 64

    /// Runs many commands in order with one durable write: the path for imports, device syncs and
    /// the generator. Each command is decided against the state left by the ones before it;
    /// refusals do not stop the rest. If the write conflicts, the commands run one by one.
    public func execute(batch envelopes: [CommandEnvelope]) async throws -> [CommandOutcome] {
        guard !envelopes.isEmpty else { return [] }
        for _ in 0..<Self.maximumRefolds {
            if let outcomes = try await executeOnce(batch: envelopes) { return outcomes }
        }
        var outcomes: [CommandOutcome] = []
        for envelope in envelopes { outcomes.append(try await execute(envelope)) }
        return outcomes
    }

    /// One try at ``execute(batch:)``: nil when the state moved or was behind the store for a
    /// stream while deciding (the caller tries again after folding).
    private func executeOnce(batch envelopes: [CommandEnvelope]) async throws -> [CommandOutcome]? {
        // Decide on the store's latest state (refusals included).
        try await catchUp(through: .max)
        var outcomes: [CommandOutcome?] = Array(repeating: nil, count: envelopes.count)
        var repeats: [Int] = []
        for (index, envelope) in envelopes.enumerated() {
            if let outcome = try await repeatOutcome(envelope) {
                outcomes[index] = outcome
            } else {
                repeats.append(index)
            }
        }
        let basis = appliedPosition
        var working = state
        var versions: [String: UInt64] = [:]
        var seen: [String: Int] = [:]
        var decided: [(index: Int, decision: Decision)] = []
        var appends: [StreamAppend] = []
        let context = context
        for index in repeats {
            let envelope = envelopes[index]
            if seen[envelope.commandID] != nil { continue }  // answered after the write, like the first
            do {
                let decision = try working.decide(envelope, context: context)
                let expected: UInt64
                if let known = versions[decision.stream] {
                    expected = known
                } else {
                    let stream = try await streamState(of: decision.stream)
                    guard appliedPosition == basis, stream.reachesUpTo <= basis else {
                        try await catchUp(through: stream.reachesUpTo)
                        return nil
                    }
                    expected = stream.version
                }
                let time = envelope.occurredAt ?? context.now
                for event in decision.events { working.apply(event, at: time) }
                versions[decision.stream] = expected + UInt64(decision.events.count)
                seen[envelope.commandID] = decided.count
                decided.append((index, decision))
                appends.append(proposed(envelope, decision, expected: expected))
            } catch let refusal as CommandRefusal {
                outcomes[index] = refused(envelope, refusal)
            }
        }
        guard appliedPosition == basis else { return nil }
        var results: [AppendResult] = []
        do {
            results = try await append(appends)
        } catch let error as EventLogError where error.code == .versionConflict || error.code == .commandIDReused {
            logger.debug("batch append conflict; running the commands one by one")
            try catchUp()
            for (index, envelope) in envelopes.enumerated() where outcomes[index] == nil {
                outcomes[index] = try await execute(envelope)
            }
            return outcomes.compactMap { $0 }
        } catch {
            throw AuditServiceError.store(error, "cannot append a batch of \(appends.count) commands")
        }
        let contiguous =
            appliedPosition == basis && results.allSatisfy { !$0.wasDuplicate }
            && zip(results, results.dropFirst()).allSatisfy { $0.positions.upperBound + 1 == $1.positions.lowerBound }
            && (results.first.map { $0.positions.lowerBound == basis + 1 } ?? true)
        if contiguous, let last = results.last {
            state = working
            appliedPosition = last.positions.upperBound
        } else {
            try catchUp()
        }
        for ((index, decision), result) in zip(decided, results) {
            outcomes[index] = outcome(envelopes[index], decision, result)
        }
        for (index, envelope) in envelopes.enumerated() where outcomes[index] == nil {
            outcomes[index] = try await repeatOutcome(envelope)
        }
        await notifyObservers()
        return outcomes.compactMap { $0 }
    }

    /// Sends ``ExpireBatch`` for every batch past its expiry, as the `system` actor.
    public func expireDueBatches() async throws -> [CommandOutcome] {
        let due = state.batchesDueForExpiry(at: now)
        let envelopes = due.map {
            CommandEnvelope(commandID: "expire-\($0)", actor: "system", command: .expireBatch(ExpireBatch(batchID: $0)))
        }
        return try await execute(batch: envelopes)
    }

    // MARK: - Pieces of the path

    /// The original outcome when the command id is already in the log store (asked of the store:
    /// it keeps the index of command ids), or the refusal when it was used for another command.
    func repeatOutcome(_ envelope: CommandEnvelope) async throws -> CommandOutcome? {
        let used: AppendedCommand?
        do {
            used = try await log.appendedCommand(envelope.commandID)
        } catch {
            throw AuditServiceError.store(
                error, "cannot look up command id \(envelope.commandID)", context: ["commandID": envelope.commandID])
        }
        guard let used else { return nil }
        guard used.isSameCommand(envelope.fingerprint) else {
            return reused(envelope, "\(used.positions.lowerBound)-\(used.positions.upperBound) on \(used.streamID)")
        }
        return CommandOutcome(
            commandID: envelope.commandID, commandType: envelope.command.typeName, status: .duplicate,
            stream: used.streamID, positions: used.positions, streamVersion: used.streamVersion,
            createdID: createdID(at: used.positions))
    }

    /// The refusal of a command sent under an id already used for a different command.
    func reused(_ envelope: CommandEnvelope, _ positions: String) -> CommandOutcome {
        refused(
            envelope,
            CommandRefusal(
                .commandIDReused, command: envelope.command.typeName,
                state: "command id '\(envelope.commandID)' is taken (positions \(positions))",
                reason:
                    "the id was already used for a different command; nothing was appended (send this command with a new id)"
            ))
    }

    func refused(_ envelope: CommandEnvelope, _ refusal: CommandRefusal) -> CommandOutcome {
        CommandOutcome(
            commandID: envelope.commandID, commandType: envelope.command.typeName, status: .refused, refusal: refusal)
    }

    func proposed(_ envelope: CommandEnvelope, _ decision: Decision, expected: UInt64) -> StreamAppend {
        let occurredAt = Timestamp(microsecondsSinceEpoch: (envelope.occurredAt ?? now).microseconds)
        return StreamAppend(
            streamID: decision.stream, expected: expected == 0 ? .noStream : .exactly(expected),
            commandID: envelope.commandID, actor: envelope.actor,
            events: decision.events.map {
                ProposedEvent(
                    eventType: $0.eventType, schemaVersion: UInt16($0.schemaVersion), occurredAt: occurredAt,
                    payload: $0.encoded())
            }, commandFingerprint: envelope.fingerprint)
    }

    /// Folds a decision appended right after ``appliedPosition`` without reading it back.
    private func fold(_ decision: Decision, _ result: AppendResult, at time: EventTime) {
        for event in decision.events { state.apply(event, at: time) }
        appliedPosition = result.positions.upperBound
    }

    func outcome(_ envelope: CommandEnvelope, _ decision: Decision, _ result: AppendResult) -> CommandOutcome {
        CommandOutcome(
            commandID: envelope.commandID, commandType: envelope.command.typeName,
            status: result.wasDuplicate ? .duplicate : .accepted, stream: decision.stream, positions: result.positions,
            streamVersion: result.streamVersion,
            eventTypes: result.wasDuplicate ? [] : decision.events.map(\.eventType),
            createdID: result.wasDuplicate
                ? createdID(at: result.positions)
                : decision.events.lazy.compactMap(CommandRecord.createdID(by:)).first)
    }

    func notifyObservers() async {
        for observer in observers { await observer.logAdvanced(to: appliedPosition) }
    }
}
