import Chronology

extension InspectionState {
    /// Refuses a device time (`occurredAt`) no clock could have shown: later than the server's
    /// time, or earlier than the batch's allocation or the task's latest event (device time
    /// against device time). Both sides allow ``CommandEnvelope/clockSkewAllowed``; equal times pass.
    ///
    /// Called from ``decide(_:context:)``, so every entry (HTTP, `record`, the generator, the
    /// PostgreSQL store) checks the same way. A command without `occurredAt` takes the server's time.
    func requirePlausibleDeviceTime(
        _ envelope: CommandEnvelope, context: DecisionContext, _ name: String
    ) throws(CommandRefusal) {
        guard let occurredAt = envelope.occurredAt else { return }
        if let problem = envelope.occurredAtProblem(now: context.now) {
            throw CommandRefusal(.invalidInput, command: name, state: "device time", reason: problem)
        }
        let command = envelope.command
        let task = command.taskID.flatMap { tasks[$0] }
        let batch = (command.batchID ?? task?.batchID).flatMap { batches[$0] }
        let skew = CommandEnvelope.clockSkewAllowed
        if let batch, occurredAt.microsecondsSinceEpoch + skew < batch.allocatedAt.microsecondsSinceEpoch {
            throw CommandRefusal(
                .invalidInput, command: name, state: batch.stateDescription,
                reason: "'occurredAt' \(occurredAt.iso8601) is before the batch's allocation at "
                    + "\(batch.allocatedAt.iso8601) (fix the device clock or the time)")
        }
        if let task, let last = task.lastEventAt, occurredAt.microsecondsSinceEpoch + skew < last.microsecondsSinceEpoch {
            throw CommandRefusal(
                .invalidInput, command: name, state: task.stateDescription,
                reason: "'occurredAt' \(occurredAt.iso8601) is before the task's previous event at "
                    + "\(last.iso8601) (fix the device clock or the time)")
        }
    }
}
