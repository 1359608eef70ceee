import AuditLog
import Inspection

extension AuditService {
    /// Runs one command: decided against the current state, appended with the stream's expected
    /// version and the command id (durably), folded in. It goes through the group writer of
    /// ``execute(bundle:)``, so commands sent at the same time share one durable write.
    ///
    /// A repeated command id returns the original result (status `.duplicate`), appending nothing.
    /// - Throws: ``AuditServiceError`` when the log fails (refusals are outcomes, not errors).
    public func execute(_ envelope: CommandEnvelope) async throws -> CommandOutcome {
        let outcomes = try await execute(bundle: [envelope])
        guard let outcome = outcomes.first else {
            throw AuditServiceError(.log, "the command got no outcome", context: ["commandID": envelope.commandID])
        }
        return outcome
    }

    /// Sends ``ExpireBatch`` for every batch past its expiry, as the `system` actor.
    public func expireDueBatches() async throws -> [CommandOutcome] {
        let due = state.batchesDueForExpiry(at: now)
        let envelopes = due.map {
            CommandEnvelope(commandID: "expire-\($0)", actor: "system", command: .expireBatch(ExpireBatch(batchID: $0)))
        }
        return try await execute(bundle: envelopes)
    }

    // MARK: - Pieces of the path

    /// The original outcome when the command id is already in the log store (asked of the store:
    /// it keeps the index of command ids), or the refusal when it was used for another command.
    func repeatOutcome(_ command: FingerprintedCommand) async throws -> CommandOutcome? {
        let envelope = command.envelope
        let used: AppendedCommand?
        do {
            used = try await log.appendedCommand(envelope.commandID)
        } catch {
            throw AuditServiceError.store(
                error, "cannot look up command id \(envelope.commandID)", context: ["commandID": envelope.commandID])
        }
        guard let used else { return nil }
        guard used.isSameCommand(command.fingerprint) else {
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

    func proposed(_ command: FingerprintedCommand, _ decision: Decision, expected: UInt64) -> StreamAppend {
        let envelope = command.envelope
        let occurredAt = Timestamp(microsecondsSinceEpoch: (envelope.occurredAt ?? now).microseconds)
        return StreamAppend(
            streamID: decision.stream, expected: expected == 0 ? .noStream : .exactly(expected),
            commandID: envelope.commandID, actor: envelope.actor,
            events: decision.events.map {
                ProposedEvent(
                    eventType: $0.eventType, schemaVersion: UInt16($0.schemaVersion), occurredAt: occurredAt,
                    payload: $0.encoded())
            }, commandFingerprint: command.fingerprint)
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

    func notifyObservers() {
        for observer in observers { observer.logAdvanced(to: appliedPosition) }
    }
}

extension IdentityState {
    /// Whether `actor` is a user whose role limits their commands to their own batches and tasks
    /// (inspectors). Actors without an account (the `system` expiry, `record` files, the generator)
    /// are the operator's, and act on anyone's work.
    func isLimitedToOwnWork(_ actor: String) -> Bool { users[actor]?.role == .inspector }
}
