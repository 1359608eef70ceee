import Dispatch

extension AuditService {
    /// Whether the photo with this hash is attached to a task of the inspector `inspectorID`
    /// (what an inspector's request for a stored photo is checked against).
    ///
    /// The search runs off the actor, on copies of the task and batch tries (persistent: copying
    /// them costs nothing, and the writer's next change copies only a path), so however many
    /// tasks it reads, commands never wait for it. Ad-hoc tasks have no index by inspector, so a
    /// photo of none of the inspector's batches costs a pass over every task: ask only about a
    /// stored photo.
    public func isPhotoAttached(sha256: String, byInspector inspectorID: String) async -> Bool {
        let ownBatches = state.batchIDsByInspector[inspectorID] ?? []
        let batches = state.batches
        let tasks = state.tasks
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                // The newest batches first: the photos an inspector opens are mostly of recent work.
                let inOwnBatch = ownBatches.reversed().contains { batchID in
                    (batches[batchID]?.taskIDs ?? []).contains { tasks[$0]?.photos.contains(sha256) == true }
                }
                continuation.resume(
                    returning: inOwnBatch
                        || tasks.values.contains {
                            $0.batchID == nil && $0.inspectorID == inspectorID && $0.photos.contains(sha256)
                        })
            }
        }
    }
}
