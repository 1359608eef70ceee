extension InspectionState {
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
}
