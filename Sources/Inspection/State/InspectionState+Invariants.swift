extension InspectionState {
    /// Every inconsistency in the state, as sentences; empty for any state reachable by decisions.
    ///
    /// Checks the combinations the seed's codes allow: a task has an inspection status exactly
    /// when it was collected (or none once released), holds match open tasks one to one, and
    /// each batch's status 2–5 is the one its tasks imply.
    public func problems() -> [String] {
        var problems: [String] = []
        var expectedHolds: [String: String] = [:]
        for task in tasks.values {
            switch task.collectionStatus {
            case .collected:
                if task.inspectionStatus == nil {
                    problems.append("task \(task.id) collected without inspection status")
                }
            case .notAllocated, .pendingCollection, .skipped:
                if task.inspectionStatus != nil {
                    problems.append("task \(task.id) has inspection status while \(task.collectionStatus.label)")
                }
            }
            if (task.collectionStatus == .skipped) != (task.skipReason != nil) {
                problems.append("task \(task.id) skip reason does not match collection status")
            }
            if task.phase != .notStarted && task.inspectionStatus != .ready {
                problems.append("task \(task.id) is in progress without being ready")
            }
            if task.inspectionStatus != .ready && !task.verdicts.isEmpty {
                problems.append("task \(task.id) keeps verdicts outside an inspection")
            }
            let batchActive = task.batchID.map { batches[$0]?.status.isActive ?? false } ?? true
            if task.collectionStatus == .notAllocated && batchActive {
                problems.append("task \(task.id) is released while its batch is active")
            }
            if batchActive && !task.isResolved && task.collectionStatus != .notAllocated {
                if let other = expectedHolds[task.gtin] {
                    problems.append("product \(task.gtin) is held by two open tasks, \(other) and \(task.id)")
                }
                expectedHolds[task.gtin] = task.id
            }
        }
        if expectedHolds != Dictionary(uniqueKeysWithValues: holds.map { ($0.key, $0.value) }) {
            problems.append("holds \(holds.count) do not match the \(expectedHolds.count) open tasks")
        }
        for batch in batches.values {
            if batch.collectionPaused && batch.status != .collectionStarted {
                problems.append("batch \(batch.id) is paused outside collection")
            }
            let derived = derivedStatus(of: batch)
            if derived != batch.status {
                problems.append("batch \(batch.id) is \(batch.status.label), tasks imply \(derived.label)")
            }
            if batch.status.rawValue >= 2 && batch.status.isActive {
                for id in batch.taskIDs where tasks[id]?.collectionStatus == .pendingCollection {
                    problems.append("batch \(batch.id) finished collection with task \(id) pending")
                }
            }
            for id in batch.taskIDs where tasks[id]?.batchID != batch.id {
                problems.append("batch \(batch.id) lists task \(id) that is not its own")
            }
        }
        return problems.sorted()
    }
}
