import Inspection

extension AuditService {
    /// Refuses (`photosMissing`) a `SubmitBatch` whose batch names photos not in the photo store.
    ///
    /// Checked where the command is decided, on the state it is decided against, so photos
    /// attached earlier in the same bundle count, and every entry (HTTP, `record`) refuses alike.
    nonisolated func requirePhotosUploaded(_ envelope: CommandEnvelope, on state: InspectionState) throws(CommandRefusal)
    {
        guard case .submitBatch(let command) = envelope.command, let batch = state.batches[command.batchID] else {
            return
        }
        var missing: [String] = []
        var seen: Set<String> = []
        for taskID in batch.taskIDs {
            for sha256 in state.tasks[taskID]?.photos ?? [] where !photos.contains(sha256: sha256) {
                if seen.insert(sha256).inserted { missing.append(sha256) }
            }
        }
        guard !missing.isEmpty else { return }
        var refusal = CommandRefusal(
            .photosMissing, command: envelope.command.typeName, state: batch.stateDescription,
            reason:
                "\(missing.count) photo(s) named by the batch are not uploaded (PUT /v1/photos/{sha256}, then submit again)")
        refusal.missingPhotos = missing
        throw refusal
    }
}
