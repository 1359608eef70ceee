import Inspection

extension AuditService {
    /// Refuses (`photosMissing`) a `SubmitBatch` whose batch names photos not in the photo store,
    /// and the `FinishInspection` of an ad-hoc task (which has no batch to submit) whose photos
    /// are not.
    ///
    /// Checked where the command is decided, on the state it is decided against, so photos
    /// attached earlier in the same bundle count, and every entry (HTTP, `record`) refuses alike.
    nonisolated func requirePhotosUploaded(_ envelope: CommandEnvelope, on state: InspectionState)
        throws(CommandRefusal)
    {
        let taskIDs: [String]
        let stateDescription: String
        let what: String
        switch envelope.command {
        case .submitBatch(let command):
            guard let batch = state.batches[command.batchID] else { return }
            (taskIDs, stateDescription, what) = (batch.taskIDs, batch.stateDescription, "the batch")
        case .finishInspection(let command):
            guard let task = state.tasks[command.taskID], task.batchID == nil else { return }
            (taskIDs, stateDescription, what) = ([task.id], task.stateDescription, "the ad-hoc task")
        default:
            return
        }
        var missing: [String] = []
        var seen: Set<String> = []
        for taskID in taskIDs {
            for sha256 in state.tasks[taskID]?.photos ?? [] where !photos.contains(sha256: sha256) {
                if seen.insert(sha256).inserted { missing.append(sha256) }
            }
        }
        guard !missing.isEmpty else { return }
        var refusal = CommandRefusal(
            .photosMissing, command: envelope.command.typeName, state: stateDescription,
            reason:
                "\(missing.count) photo(s) named by \(what) are not uploaded (PUT /v1/photos/{sha256}, then send \(envelope.command.typeName) again)"
        )
        refusal.missingPhotos = missing
        throw refusal
    }
}
