import AuditLog
import AuditService
import Chronology
import Inspection

/// Resuming an interrupted run.
///
/// The generator is a pure function of its configuration and of the state its commands meet: the
/// same seed draws the same numbers, names the same command ids (`gen-SEED-N`, `expire-B7`) and
/// sets the same clock. What it cannot do is read the service's state while the log already
/// holds more than the run has reached: the state would be ahead of it, and its choices (which
/// batches are due, what a location's queue holds) would differ. So a resumed run *replays* its
/// own commands against a local copy of the state, deciding them exactly as the service does
/// (`InspectionState.decide`, then `apply` at the command's time), until its events reach the
/// end of the log. There it checks that the local state equals the service's (it does when the
/// log was written by the same configuration) and sends the rest for real.
///
/// The log ends at a command boundary: each stream append of a batch is atomic on disk, so an
/// interrupted batch leaves a prefix of whole commands. Commands refused in the interrupted run
/// left nothing in the log and are refused again by the replay, as they were then.
struct GeneratorReplay {
    /// The state as the interrupted run had it at this point.
    var state: InspectionState
    /// Events the replayed commands produced so far.
    var events: UInt64 = 0
    /// The last position of the log being resumed.
    let end: UInt64
}

/// Why a run cannot resume the log it was given.
public struct GeneratorResumeError: Error, CustomStringConvertible, Sendable {
    /// What differs, and what to do.
    public let description: String
}

extension GeneratorRun {
    /// The state the generator's next choices are made on: the replay's while it replays, the
    /// service's afterwards.
    func currentState() async -> InspectionState {
        if let replay { return replay.state }
        return await service.state
    }

    /// Decides the leading commands of `commands` against the replay's state while they are in
    /// the log already; returns the rest, to be sent. Ends the replay at the log's end.
    mutating func replayPrefix(_ commands: [CommandEnvelope]) async throws -> ArraySlice<CommandEnvelope> {
        guard var replay else { return commands[...] }
        var index = commands.startIndex
        let now = clock.now()
        let context = DecisionContext(
            now: now, allocation: service.configuration.allocation, photos: service.configuration.photos)
        while index < commands.endIndex, replay.events < replay.end {
            let envelope = commands[index]
            index += 1
            report.commands += 1
            do {
                let decision = try replay.state.decide(envelope, context: context)
                for event in decision.events { replay.state.apply(event, at: envelope.occurredAt ?? now) }
                replay.events += UInt64(decision.events.count)
                report.accepted += 1
            } catch {
                report.refused += 1
                if report.refusalSamples.count < 5 {
                    report.refusalSamples.append("refused \(envelope.commandID): \(error)")
                }
            }
        }
        self.replay = replay
        if replay.events >= replay.end { try await endReplay() }
        return commands[index...]
    }

    /// Checks that the replay reached exactly the log's end with the service's state, and stops it.
    mutating func endReplay() async throws {
        guard let replay else { return }
        self.replay = nil
        guard replay.events == replay.end else {
            throw GeneratorResumeError(
                description:
                    "the log ends inside what this configuration generates (its commands make \(replay.events) events where the log holds \(replay.end)): it was not written by generate with these options"
            )
        }
        guard replay.state == (await service.state) else {
            throw GeneratorResumeError(
                description:
                    "the log's \(replay.end) events are not what this configuration generates: it was written with other options or by other commands"
            )
        }
    }
}
