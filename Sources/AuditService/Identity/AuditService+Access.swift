import Inspection

/// Who owns a batch or task, and which photos a batch still waits for: what an edge needs to
/// apply its permission rules (an inspector acts only on their own work) before running commands.
public struct WorkOwnership: Sendable {
    /// Batch id → inspector id, for the batches asked about that exist.
    public var batchInspectors: [String: String] = [:]
    /// Task id → (inspector id, batch id), for the tasks asked about that exist.
    public var tasks: [String: (inspectorID: String, batchID: String?)] = [:]
    /// Batch id → the tasks it holds, for the batches asked about.
    public var batchTasks: [String: [String]] = [:]
    /// Batch id → photos attached to its tasks that are not uploaded yet.
    public var missingPhotos: [String: [String]] = [:]

}

extension AuditService {
    /// Owners of the named batches and tasks (unknown ids are left out), the tasks of the named
    /// batches, and each named batch's photos that are attached but not uploaded.
    public func ownership(batchIDs: Set<String>, taskIDs: Set<String>) -> WorkOwnership {
        var result = WorkOwnership()
        for id in batchIDs {
            guard let batch = state.batches[id] else { continue }
            result.batchInspectors[id] = batch.inspectorID
            result.batchTasks[id] = batch.taskIDs
            let missing = batch.taskIDs.flatMap { state.tasks[$0]?.photos ?? [] }.filter {
                !photos.contains(sha256: $0)
            }
            if !missing.isEmpty { result.missingPhotos[id] = missing }
        }
        for id in taskIDs {
            guard let task = state.tasks[id] else { continue }
            result.tasks[id] = (task.inspectorID, task.batchID)
        }
        return result
    }
}
