import AuditLog
import Chronology
import Inspection

// The write path: a command (or a bundle of them) is fingerprinted on the sender's task, queued
// for the one group writer, checked for a repeated id and for ownership, decided against the
// state, appended durably with the stream's expected version, folded into the state and
// answered; observers (the projection follower) are then told the new position.

/// What the group writer did since the service opened: `bundles / writes` is how many bundles
/// shared one durable append (one log commit, one fdatasync of the log).
public struct GroupStatistics: Sendable, Hashable {
    /// Group writes (each one durable append of the log; none when every command in it was a
    /// duplicate or refused).
    public var writes = 0
    /// Bundles answered by those writes.
    public var bundles = 0
    /// Commands in those bundles.
    public var commands = 0
    /// The most bundles one write carried.
    public var largestGroup = 0
}

/// A bundle of commands waiting for the next group write.
struct QueuedBundle {
    var commands: [FingerprintedCommand]
    var continuation: CheckedContinuation<[CommandOutcome], any Error>
}

/// A command with its fingerprint, hashed on the sender's task before the command reaches the
/// group writer: encoding the command canonically is the costliest step of deciding it, needs no
/// state, and would otherwise hold up every bundle queued behind it.
struct FingerprintedCommand: Sendable {
    var envelope: CommandEnvelope
    var fingerprint: CommandFingerprint

    init(_ envelope: CommandEnvelope) {
        self.envelope = envelope
        fingerprint = envelope.fingerprint
    }
}

extension AuditService {
    /// Runs many commands in order with one durable write: the path for imports, device syncs and
    /// the generator. Each command is decided against the state left by the ones before it;
    /// refusals do not stop the rest.
    ///
    /// Bundles sent at the same time (many devices) are written together: one writer decides
    /// every queued bundle in arrival order against its working copy of the state, appends them
    /// all with one durable write (one fdatasync), folds them in and answers each bundle. So
    /// concurrent bundles never race on a stream (one shared by every allocation, say).
    /// - Throws: ``AuditServiceError`` when the log fails; then none of the bundle is acknowledged.
    public nonisolated func execute(bundle envelopes: [CommandEnvelope]) async throws -> [CommandOutcome] {
        guard !envelopes.isEmpty else { return [] }
        return try await enqueue(envelopes.map(FingerprintedCommand.init))
    }

    /// Queues a bundle for the group writer, starting it when it is idle.
    private func enqueue(_ commands: [FingerprintedCommand]) async throws -> [CommandOutcome] {
        try await withCheckedThrowingContinuation { continuation in
            queuedBundles.append(QueuedBundle(commands: commands, continuation: continuation))
            if !groupWriterRunning {
                groupWriterRunning = true
                Task { await self.writeQueuedGroups() }
            }
        }
    }

    /// Writes the queued bundles group by group until none is left.
    private func writeQueuedGroups() async {
        while !queuedBundles.isEmpty {
            let group = queuedBundles
            queuedBundles.removeAll(keepingCapacity: true)
            do {
                let outcomes = try await writeGroup(group.map(\.commands))
                groupStatistics.writes += 1
                groupStatistics.bundles += group.count
                groupStatistics.commands += group.reduce(0) { $0 + $1.commands.count }
                groupStatistics.largestGroup = max(groupStatistics.largestGroup, group.count)
                for (bundle, outcome) in zip(group, outcomes) { bundle.continuation.resume(returning: outcome) }
            } catch {
                for bundle in group { bundle.continuation.resume(throwing: error) }
            }
        }
        groupWriterRunning = false
    }

    /// Decides, appends (one durable write) and folds one group of bundles; one outcome list per
    /// bundle. Another writer to the log (an identity command, another server sharing the store)
    /// may make a stream's version stale: then the service catches up and decides the group again.
    ///
    /// A group is decided on ``workingReplica``, a copy of the state the writer keeps to itself and
    /// changes in place; ``state``, which readers see, gets the same events once they are durable.
    /// Deciding on a fresh copy of the state instead made every change copy the trie nodes on its
    /// path and, once the group was written, free the nodes they replaced: an allocation and a
    /// free per node, for every change of every group. A group that is not written leaves the
    /// replica half changed, so it is dropped and the next group starts from a copy of the state.
    func writeGroup(_ bundles: [[FingerprintedCommand]]) async throws -> [[CommandOutcome]] {
        var conflicts = 0
        var refolds = 0
        while conflicts < max(1, configuration.maxAttempts) {
            switch try await attemptGroup(bundles) {
            case .written(let outcomes): return outcomes
            case .behind(let position):
                // The state lacked events of a stream the store holds: fold them, decide again.
                refolds += 1
                guard refolds <= Self.maximumRefolds else {
                    conflicts = .max
                    break
                }
                try await catchUp(through: position)
            case .conflict:
                conflicts += 1
                conflictRetries += 1
                _ = try? await log.refresh()
                try catchUp()
            }
        }
        throw AuditServiceError(
            .tooManyConflicts,
            "other appends to the same streams kept winning; the commands were not applied (send them again)",
            context: ["commands": "\(bundles.map(\.count).reduce(0, +))"])
    }

    /// Every how many written groups the working replica is made to share the state's storage
    /// again (see ``writeGroup(_:)``): often enough to bound the memory, rarely enough that the
    /// paths copied afterwards cost nothing measurable.
    package static let replicaShareInterval = 256

    /// How often one group folds and decides again because the state was behind the store.
    static let maximumRefolds = 64

    /// What one try at a group came to.
    enum GroupAttempt {
        case written([[CommandOutcome]])
        /// The state decided on lacks events of a stream, which reach this position: nothing written.
        case behind(UInt64)
        /// The append conflicted (another writer won): nothing written.
        case conflict
    }

    /// One try at a group. Duplicates and each stream's expected version are the store's answers;
    /// a version is used only when the state decided on holds every event of its stream.
    private func attemptGroup(_ bundles: [[FingerprintedCommand]]) async throws -> GroupAttempt {
        // Refusals and versions are decided on the store's latest state.
        try await catchUp(through: .max)
        // The state is taken before the store is asked for repeats: a command whose events the
        // state holds is then surely found as a repeat. (Asked first, a follower's fold during the
        // lookups could bring in a command just committed elsewhere, and its resend would be
        // decided on a state that already holds it: refused instead of answered as a duplicate.)
        let basis = appliedPosition
        // Taken out, so that changing it copies nothing; put back only when the group is written.
        var working = workingReplica.take() ?? state
        var applied: [(events: [InspectionEvent], time: Timestamp)] = []
        var repeats: [[CommandOutcome?]] = []
        for commands in bundles {
            var answers: [CommandOutcome?] = []
            for command in commands { answers.append(try await repeatOutcome(command)) }
            repeats.append(answers)
        }
        var versions: [String: UInt64] = [:]
        var decidedIDs: Set<String> = []
        var outcomes: [[CommandOutcome?]] = bundles.map { Array(repeating: nil, count: $0.count) }
        var decided: [(bundle: Int, index: Int, decision: Decision)] = []
        var appends: [StreamAppend] = []
        let context = context
        // Read once per group: each command's role is then a dictionary lookup, no await.
        let identities = identity.snapshot()
        for (bundle, commands) in bundles.enumerated() {
            for (index, command) in commands.enumerated() {
                let envelope = command.envelope
                if let outcome = repeats[bundle][index] {
                    outcomes[bundle][index] = outcome
                    continue
                }
                // A second copy in the group is answered after the write, like a later repeat.
                if decidedIDs.contains(envelope.commandID) { continue }
                do {
                    // Checked on the state the command is decided on, so no command can take the
                    // batch or task between the check and the append.
                    if identities.isLimitedToOwnWork(envelope.actor) { try working.requireOwnWork(envelope) }
                    let decision = try working.decide(envelope, context: context)
                    try requirePhotosUploaded(envelope, on: working)
                    let expected: UInt64
                    if let known = versions[decision.stream] {
                        expected = known
                    } else {
                        let stream = try await streamState(of: decision.stream)
                        guard stream.reachesUpTo <= basis, appliedPosition == basis else {
                            return .behind(stream.reachesUpTo)
                        }
                        expected = stream.version
                    }
                    let time = envelope.occurredAt ?? context.now
                    for event in decision.events { working.apply(event, at: time) }
                    applied.append((decision.events, time))
                    versions[decision.stream] = expected + UInt64(decision.events.count)
                    decidedIDs.insert(envelope.commandID)
                    decided.append((bundle, index, decision))
                    appends.append(proposed(command, decision, expected: expected))
                } catch let refusal as CommandRefusal {
                    outcomes[bundle][index] = refused(envelope, refusal)
                }
            }
        }
        var results: [AppendResult] = []
        do {
            results = try await append(appends)
        } catch let error as EventLogError where error.code == .versionConflict || error.code == .commandIDReused {
            logger.debug("group append conflict; catching up and deciding again")
            return .conflict
        } catch {
            throw AuditServiceError.store(error, "cannot append a group of \(appends.count) commands")
        }
        let contiguous =
            appliedPosition == basis && results.allSatisfy { !$0.wasDuplicate }
            && zip(results, results.dropFirst()).allSatisfy { $0.positions.upperBound + 1 == $1.positions.lowerBound }
            && (results.first.map { $0.positions.lowerBound == basis + 1 } ?? true)
        if contiguous, let last = results.last {
            // The same events at the same times, in the same order: the state ends equal to the replica.
            for (events, time) in applied {
                for event in events { state.apply(event, at: time) }
            }
            appliedPosition = last.positions.upperBound
            groupsSinceReplicaShared += 1
            if groupsSinceReplicaShared >= Self.replicaShareInterval {
                // The two are equal, but each change made its own copies of the nodes it touched:
                // over time they share nothing, and the state's memory doubles. Sharing again
                // frees the replica's copies; the next groups copy only the paths they touch.
                workingReplica = state
                groupsSinceReplicaShared = 0
            } else {
                workingReplica = working
            }
        } else if applied.isEmpty, appliedPosition == basis {
            workingReplica = working  // only repeats and refusals: nothing changed it
        } else {
            try catchUp()
        }
        for (item, result) in zip(decided, results) {
            outcomes[item.bundle][item.index] = outcome(
                bundles[item.bundle][item.index].envelope, item.decision, result)
        }
        for (bundle, commands) in bundles.enumerated() {
            for (index, command) in commands.enumerated() where outcomes[bundle][index] == nil {
                outcomes[bundle][index] = try await repeatOutcome(command)
            }
        }
        if !appends.isEmpty { notifyObservers() }
        return .written(outcomes.map { $0.compactMap { $0 } })
    }
}

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
        let occurredAt = envelope.occurredAt ?? now
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
                : decision.events.lazy.compactMap(\.createdID).first)
    }

    func notifyObservers() {
        for observer in observers { observer.logAdvanced(to: appliedPosition) }
    }
}

extension IdentityState {
    /// Whether `actor` is a user whose roles limit their commands to their own batches and tasks
    /// (``PermissionTable/isLimitedToOwnWork(_:)``: inspectors without the manager or admin role). Actors without an account (the `system` expiry, `record` files, the generator)
    /// are the operator's, and act on anyone's work.
    func isLimitedToOwnWork(_ actor: String) -> Bool {
        users[actor].map { PermissionTable.isLimitedToOwnWork($0.roles) } ?? false
    }
}

extension AuditService {
    /// Appends through the log (one durable write for the whole list).
    func append(_ appends: [StreamAppend]) async throws -> [AppendResult] {
        try await log.append(contentsOf: appends)
    }
}

extension CommandEnvelope {
    /// The SHA-256 of the command's canonical content: its type and its own fields as compact JSON
    /// with sorted keys, without the envelope (command id, actor, occurred-at). A resend of the
    /// same command has the same fingerprint however its JSON was laid out; another command under
    /// the same id has another one, and is refused.
    public var fingerprint: CommandFingerprint {
        var content = self
        content.commandID = ""
        content.actor = ""
        content.occurredAt = nil
        return CommandFingerprint(sha256Of: content.jsonLine().utf8)
    }
}
