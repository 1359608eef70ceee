import Dispatch
import Inspection

extension AuditService {
    /// Whether the photo with this hash is the reference image of a product in a task of the
    /// inspector `inspectorID` (an inspector may open what the product looks like, though a
    /// colleague took the photo).
    ///
    /// Off the actor on copies of the persistent tries, as ``isPhotoAttached(sha256:byInspector:)``.
    public func isReferenceImage(sha256: String, ofTasksOf inspectorID: String) async -> Bool {
        let ownBatches = state.batchIDsByInspector[inspectorID] ?? []
        let batches = state.batches
        let tasks = state.tasks
        let products = state.products
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                func shows(_ task: InspectionState.Task?) -> Bool {
                    guard let task else { return false }
                    return products[task.gtin]?.referencePhoto == sha256
                }
                let inOwnBatch = ownBatches.contains { batchID in
                    (batches[batchID]?.taskIDs ?? []).contains { shows(tasks[$0]) }
                }
                continuation.resume(
                    returning: inOwnBatch
                        || tasks.values.contains { $0.batchID == nil && $0.inspectorID == inspectorID && shows($0) })
            }
        }
    }
}
