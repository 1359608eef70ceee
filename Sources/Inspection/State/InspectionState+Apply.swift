import Chronology

extension InspectionState {
    /// Folds one event into the state. `time` is the event's occurred-at time.
    ///
    /// Events come from decisions made against this same fold, so apply trusts them; an event
    /// that refers to something unknown (a damaged or hand-edited log) is ignored rather than
    /// trapping, and ``problems()`` reports any inconsistency.
    public mutating func apply(_ event: InspectionEvent, at time: Timestamp) {
        if let taskID = event.taskEventID { tasks[taskID]?.lastEventAt = time }
        switch event {
        case .attributeVerdictRecorded(let event):
            // One access to the task: this runs once per attribute of every inspection.
            tasks[event.taskID]?.record(event)
        case .locationRegistered(let event):
            locations[event.locationID] = Location(id: event.locationID, name: event.name, kind: event.kind)
        case .inspectorRegistered(let event):
            inspectors[event.inspectorID] = Inspector(id: event.inspectorID, name: event.name, role: event.role)
        case .productRegistered(let event):
            changingQueues(of: event.gtin) { $0.applyProductRegistered(event) }
        case .datasheetImported(let event):
            guard products[event.gtin] != nil else { return }
            changingQueues(of: event.gtin) { state in
                state.products[event.gtin]?.datasheetID = event.datasheetID
                state.products[event.gtin]?.attributePaths = event.attributes.map(\.path)
                state.products[event.gtin]?.attributeSet = Set(event.attributes.map(\.path))
                state.products[event.gtin]?.attributeValues = event.attributes.map(\.value)
            }
        case .productReceived(let event):
            guard products[event.gtin] != nil else { return }
            // A damaged sample waits on its shelf for its replacement, out of every queue.
            guard event.condition == .good else {
                products[event.gtin]?.shelf = event.storageLocation
                return
            }
            changingQueues(of: event.gtin) { state in
                state.products[event.gtin]?.pendingReception = Reception(
                    receptionID: event.receptionID, locationID: event.locationID, priority: event.priority,
                    inspectBefore: event.inspectBefore, receivedAt: time)
                state.products[event.gtin]?.shelf = event.storageLocation
                state.productsByLocation[event.locationID, default: []].insert(event.gtin)
            }
        case .batchAllocated(let event):
            applyBatchAllocated(event, at: time)
        case .adHocTaskAllocated(let event):
            adHocCount += 1
            adHocTaskIDsByInspector[event.inspectorID, default: []].append(event.taskID)
            tasks[event.taskID] = Task(
                id: event.taskID, batchID: nil, inspectorID: event.inspectorID, locationID: event.locationID,
                gtin: event.gtin, mode: .adHoc, progress: .allocatedAdHoc)
            holds[event.gtin] = event.taskID
        case .collectionStarted(let event):
            batches[event.batchID]?.status = .collectionStarted
            batches[event.batchID]?.collectionPaused = false
        case .collectionPaused(let event):
            batches[event.batchID]?.collectionPaused = true
        case .collectionFinished(let event):
            batches[event.batchID]?.status = .collectionCompleted
            batches[event.batchID]?.collectionPaused = false
            settle(batchID: event.batchID)
        case .collectionCancelled(let event):
            close(batchID: event.batchID, expired: false, at: time)
        case .productCollected(let event):
            tasks[event.taskID]?.progress.collect()
            tasks[event.taskID]?.scanned = event.scanned
        case .collectionSkipped(let event):
            tasks[event.taskID]?.progress.skipCollection(event.reason)
            release(taskID: event.taskID)
        case .inspectionStarted(let event):
            tasks[event.taskID]?.progress.startInspection()
            settle(taskID: event.taskID)
        case .inspectionPaused(let event):
            tasks[event.taskID]?.progress.pauseInspection()
        case .photoAttached(let event):
            tasks[event.taskID]?.photos.append(event.sha256)
            settle(taskID: event.taskID)
        case .photoDetached(let event):
            tasks[event.taskID]?.photos.removeAll { $0 == event.sha256 }
            settle(taskID: event.taskID)
        case .inspectionFinished(let event):
            applyInspectionFinished(event, at: time)
        case .inspectionSkipped(let event):
            tasks[event.taskID]?.progress.skipInspection()
            tasks[event.taskID]?.verdicts = [:]
            tasks[event.taskID]?.verdictDetails = [:]
            release(taskID: event.taskID)
            settle(taskID: event.taskID)
        case .batchSubmitted(let event):
            batches[event.batchID]?.status = .submitted
            batches[event.batchID]?.submittedAt = time
        case .batchCancelled(let event):
            close(batchID: event.batchID, expired: false, at: time)
            batches[event.batchID]?.cancellationReason = event.reason
        case .batchExpired(let event):
            close(batchID: event.batchID, expired: true, at: time)
        default:
            // Events decisions do not depend on (rule findings feed only the projections). A new
            // event type lands here until it gets a case: give it one when it changes what a
            // command may do, and StateDriftTests compares this fold with the batch projection.
            break
        }
    }

    fileprivate mutating func applyProductRegistered(_ event: ProductRegistered) {
        if var product = products[event.gtin] {
            for listing in product.registration.listings { productsByLocation[listing.locationID]?.remove(event.gtin) }
            product.registration = event
            products[event.gtin] = product
        } else {
            products[event.gtin] = Product(registration: event)
        }
        for listing in event.listings { productsByLocation[listing.locationID, default: []].insert(event.gtin) }
        if let reception = products[event.gtin]?.pendingReception {
            productsByLocation[reception.locationID, default: []].insert(event.gtin)
        }
    }

    private mutating func applyBatchAllocated(_ event: BatchAllocated, at time: Timestamp) {
        batchCount += 1
        batches[event.batchID] = Batch(
            id: event.batchID, inspectorID: event.inspectorID, locationID: event.locationID, mode: event.mode,
            status: .assigned, collectionPaused: false, allocatedAt: time, expiresAt: event.expiresAt, expired: false,
            taskIDs: event.tasks.map(\.taskID))
        batchIDsByInspector[event.inspectorID, default: []].append(event.batchID)
        for task in event.tasks {
            tasks[task.taskID] = Task(
                id: task.taskID, batchID: event.batchID, inspectorID: event.inspectorID, locationID: event.locationID,
                gtin: task.gtin, mode: event.mode, progress: .allocatedInBatch)
            holds[task.gtin] = task.taskID
        }
    }

    private mutating func applyInspectionFinished(_ event: InspectionFinished, at time: Timestamp) {
        guard var task = tasks[event.taskID] else { return }
        task.progress.finishInspection(event.result)
        task.verdicts = [:]
        task.verdictDetails = [:]
        task.passedCount = event.passedCount
        task.warningCount = event.warningCount
        task.failureCount = event.failureCount
        task.unableCount = event.unableCount
        tasks[event.taskID] = task
        if products[task.gtin] != nil {
            changingQueues(of: task.gtin) { state in
                state.products[task.gtin]?.recordInspection(of: task, result: event.result, at: time)
            }
        }
        release(taskID: event.taskID)
        settle(taskID: event.taskID)
    }

    /// Ends a task's hold on its product.
    private mutating func release(taskID: String) {
        guard let task = tasks[taskID], holds[task.gtin] == taskID else { return }
        holds[task.gtin] = nil
    }

    /// Status 7: every open task goes back to "not allocated" and its product is released.
    private mutating func close(batchID: String, expired: Bool, at time: Timestamp) {
        guard var batch = batches[batchID] else { return }
        batch.status = .cancelled
        batch.cancelledAt = time
        batch.collectionPaused = false
        batch.expired = expired
        batches[batchID] = batch
        for taskID in batch.taskIDs {
            guard var task = tasks[taskID], !task.isResolved else { continue }
            release(taskID: taskID)
            task.progress.returnWithClosedBatch()
            task.verdicts = [:]
            task.verdictDetails = [:]
            tasks[taskID] = task
        }
    }

    private mutating func settle(taskID: String) {
        if let batchID = tasks[taskID]?.batchID { settle(batchID: batchID) }
    }

    /// Derives statuses 2–5 from the tasks: 3 once any inspection began, 4 when every task is
    /// resolved, 5 when in addition every inspected task has a photo.
    mutating func settle(batchID: String) {
        guard let batch = batches[batchID] else { return }
        let derived = derivedStatus(of: batch)
        if derived != batch.status { batches[batchID]?.status = derived }
    }

    /// The status statuses 2–5 imply for `batch`'s tasks (``BatchProgress/status(from:)``);
    /// other statuses are returned unchanged.
    func derivedStatus(of batch: Batch) -> BatchStatus {
        guard (2...5).contains(batch.status.rawValue) else { return batch.status }
        var progress = BatchProgress(taskCount: 0)
        for taskID in batch.taskIDs {
            guard let task = tasks[taskID] else { continue }
            progress.taskCount += 1
            progress.add(task.progress, photos: task.photos.count)
        }
        return progress.status(from: batch.status)
    }
}

extension InspectionEvent {
    /// The task a task-scoped event (collection, inspection, verdict, photo) is about.
    var taskEventID: String? {
        switch self {
        case .productCollected(let event): event.taskID
        case .collectionSkipped(let event): event.taskID
        case .inspectionStarted(let event): event.taskID
        case .inspectionPaused(let event): event.taskID
        case .attributeVerdictRecorded(let event): event.taskID
        case .photoAttached(let event): event.taskID
        case .photoDetached(let event): event.taskID
        case .inspectionFinished(let event): event.taskID
        case .inspectionSkipped(let event): event.taskID
        default: nil
        }
    }
}
