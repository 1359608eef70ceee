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
        for attempt in 0..<max(1, configuration.maxAttempts) {
            if let outcome = repeatOutcome(envelope) { return outcome }
            let basis = appliedPosition
            let decision: Decision
            do {
                decision = try state.decide(envelope, context: context)
            } catch {
                return refused(envelope, error)
            }
            let append = proposed(envelope, decision, expected: version(of: decision.stream))
            let result: AppendResult
            do {
                result = try await log.append(batch: [append])[0]
            } catch let error as EventLogError where error.code == .commandIDReused {
                return reused(envelope, error.context["positions"] ?? "?")
            } catch let error as EventLogError where error.code == .versionConflict {
                logger.debug("append conflict; deciding again", metadata: ["stream": "\(decision.stream)"])
                conflictRetries += 1
                let known = version(of: decision.stream)
                try catchUp()
                // The winner's records may not be readable yet: back off until they are.
                var wait = 0
                while version(of: decision.stream) == known && wait < 50 {
                    try? await Task.sleep(for: .milliseconds(1 << min(attempt, 4)))
                    try catchUp()
                    wait += 1
                }
                continue
            } catch {
                throw AuditServiceError(.log, "cannot append: \(error)", context: ["commandID": envelope.commandID])
            }
            if !result.wasDuplicate, appliedPosition == basis, result.positions.lowerBound == basis + 1 {
                fold(envelope, decision, result, fingerprint: append.commandFingerprint)
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

    /// Runs many commands in order with one durable write: the path for imports, device syncs and
    /// the generator. Each command is decided against the state left by the ones before it;
    /// refusals do not stop the rest. If the write conflicts, the commands run one by one.
    public func execute(batch envelopes: [CommandEnvelope]) async throws -> [CommandOutcome] {
        guard !envelopes.isEmpty else { return [] }
        let basis = appliedPosition
        var working = state
        var versions: [String: UInt64] = [:]
        var seen: [String: Int] = [:]
        var outcomes: [CommandOutcome?] = Array(repeating: nil, count: envelopes.count)
        var decided: [(index: Int, decision: Decision)] = []
        var appends: [StreamAppend] = []
        let context = context
        for (index, envelope) in envelopes.enumerated() {
            if let outcome = repeatOutcome(envelope) {
                outcomes[index] = outcome
                continue
            }
            if seen[envelope.commandID] != nil { continue }  // answered after the write, like the first
            do {
                let decision = try working.decide(envelope, context: context)
                let expected = versions[decision.stream] ?? version(of: decision.stream)
                let time = envelope.occurredAt ?? context.now
                for event in decision.events { working.apply(event, at: time) }
                versions[decision.stream] = expected + UInt64(decision.events.count)
                seen[envelope.commandID] = decided.count
                decided.append((index, decision))
                appends.append(proposed(envelope, decision, expected: expected))
            } catch {
                outcomes[index] = refused(envelope, error)
            }
        }
        var results: [AppendResult] = []
        do {
            results = try await log.append(batch: appends)
        } catch let error as EventLogError where error.code == .versionConflict || error.code == .commandIDReused {
            logger.debug("batch append conflict; running the commands one by one")
            try catchUp()
            for (index, envelope) in envelopes.enumerated() where outcomes[index] == nil {
                outcomes[index] = try await execute(envelope)
            }
            return outcomes.compactMap { $0 }
        } catch {
            throw AuditServiceError(.log, "cannot append a batch of \(appends.count) commands: \(error)")
        }
        let contiguous =
            appliedPosition == basis && results.allSatisfy { !$0.wasDuplicate }
            && zip(results, results.dropFirst()).allSatisfy { $0.positions.upperBound + 1 == $1.positions.lowerBound }
            && (results.first.map { $0.positions.lowerBound == basis + 1 } ?? true)
        if contiguous, let last = results.last {
            state = working
            for ((_, decision), result) in zip(decided, results) {
                streamVersions[decision.stream] = result.streamVersion
            }
            for (append, result) in zip(appends, results) {
                commands[append.commandID] = CommandRecord(
                    stream: append.streamID, firstPosition: result.positions.lowerBound,
                    lastPosition: result.positions.upperBound, streamVersion: result.streamVersion,
                    fingerprint: append.commandFingerprint)
            }
            appliedPosition = last.positions.upperBound
        } else {
            try catchUp()
        }
        for ((index, decision), result) in zip(decided, results) {
            outcomes[index] = outcome(envelopes[index], decision, result)
        }
        for (index, envelope) in envelopes.enumerated() where outcomes[index] == nil {
            outcomes[index] = repeatOutcome(envelope)
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

    /// The original outcome when the command id is already in the log.
    func repeatOutcome(_ envelope: CommandEnvelope) -> CommandOutcome? {
        guard let record = commands[envelope.commandID] else { return nil }
        if let stored = record.fingerprint, stored != envelope.fingerprint {
            return reused(envelope, "\(record.firstPosition)-\(record.lastPosition) on \(record.stream)")
        }
        return CommandOutcome(
            commandID: envelope.commandID, commandType: envelope.command.typeName, status: .duplicate,
            stream: record.stream, positions: record.firstPosition...record.lastPosition,
            streamVersion: record.streamVersion)
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
    private func fold(
        _ envelope: CommandEnvelope, _ decision: Decision, _ result: AppendResult, fingerprint: CommandFingerprint?
    ) {
        let time = envelope.occurredAt ?? now
        for event in decision.events { state.apply(event, at: time) }
        streamVersions[decision.stream] = result.streamVersion
        commands[envelope.commandID] = CommandRecord(
            stream: decision.stream, firstPosition: result.positions.lowerBound,
            lastPosition: result.positions.upperBound,
            streamVersion: result.streamVersion, fingerprint: fingerprint)
        appliedPosition = result.positions.upperBound
    }

    func outcome(_ envelope: CommandEnvelope, _ decision: Decision, _ result: AppendResult) -> CommandOutcome {
        CommandOutcome(
            commandID: envelope.commandID, commandType: envelope.command.typeName,
            status: result.wasDuplicate ? .duplicate : .accepted, stream: decision.stream, positions: result.positions,
            streamVersion: result.streamVersion, eventTypes: result.wasDuplicate ? [] : decision.events.map(\.eventType)
        )
    }

    func notifyObservers() async {
        for observer in observers { await observer.logAdvanced(to: appliedPosition) }
    }
}
