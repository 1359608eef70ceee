import Inspection

extension InspectionEvent {
    /// The task the event is about, when it is about one.
    var taskID: String? {
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
        case .adHocTaskAllocated(let event): event.taskID
        default: nil
        }
    }

    /// The batch the event is about, when it is about a whole batch.
    var batchID: String? {
        switch self {
        case .batchAllocated(let event): event.batchID
        case .collectionStarted(let event): event.batchID
        case .collectionPaused(let event): event.batchID
        case .collectionFinished(let event): event.batchID
        case .collectionCancelled(let event): event.batchID
        case .batchSubmitted(let event): event.batchID
        case .batchCancelled(let event): event.batchID
        case .batchExpired(let event): event.batchID
        default: nil
        }
    }

    /// One line for the auditor's timeline (ids and codes, never free-text values of people).
    public var summary: String {
        switch self {
        case .locationRegistered(let event): "location \(event.locationID) (kind \(event.kind.rawValue))"
        case .inspectorRegistered(let event): "inspector \(event.inspectorID) (role \(event.role.rawValue))"
        case .productRegistered(let event):
            "product \(event.gtin) '\(event.name)' type \(ReportLabels.productType(event.productType.rawValue)), \(event.listings.count) listing\(event.listings.count == 1 ? "" : "s")"
        case .datasheetImported(let event):
            "datasheet \(event.datasheetID) for \(event.gtin), \(event.attributes.count) attributes"
        case .ruleCheckRecorded(let event):
            "rule check of \(event.gtin): \(event.passedCount) passed, \(event.warningCount) warnings, \(event.failureCount) failures"
        case .productReceived(let event):
            "received \(event.gtin) at \(event.locationID), priority \(event.priority.rawValue)"
                + (event.inspectBefore.map { ", inspect before \($0.iso8601)" } ?? "")
                + (event.condition == .damaged ? ", damaged" : "")
        case .replacementRequested(let event):
            "replacement of damaged sample \(event.gtin) asked for (reception \(event.receptionID))"
        case .batchAllocated(let event):
            "batch \(event.batchID) to \(event.inspectorID) at \(event.locationID), mode \(ReportLabels.mode(event.mode.rawValue)), \(event.tasks.count) task\(event.tasks.count == 1 ? "" : "s")"
        case .adHocTaskAllocated(let event): "ad-hoc task \(event.taskID) for \(event.gtin) to \(event.inspectorID)"
        case .productCollected(let event): "task \(event.taskID): collected \(event.matchedGTIN)"
        case .collectionSkipped(let event):
            "task \(event.taskID): collection skipped (\(ReportLabels.skipReason(event.reason.rawValue)))"
        case .attributeVerdictRecorded(let event):
            "task \(event.taskID): \(event.path) verdict \(ReportLabels.verdict(event.verdict.rawValue))"
        case .photoAttached(let event): "task \(event.taskID): photo \(event.sha256.prefix(12))…"
        case .photoDetached(let event): "task \(event.taskID): photo \(event.sha256.prefix(12))… detached"
        case .inspectionFinished(let event):
            "task \(event.taskID): inspection \(event.result.rawValue == 2 ? "passed" : "failed") (\(event.passedCount) passed, \(event.warningCount) warnings, \(event.failureCount) failures, \(event.unableCount) unable)"
        case .batchSubmitted(let event): "batch \(event.batchID): submitted"
        case .batchCancelled(let event): "batch \(event.batchID): cancelled (\(event.reason))"
        case .batchExpired(let event):
            "batch \(event.batchID): expired, \(event.releasedTaskIDs.count) tasks released"
        default:
            // The event type in words, after its batch or task ("batch B-1: collection started"):
            // events that say nothing more, and a new event type until it gets a line of its own.
            [batchID.map { "batch \($0)" } ?? taskID.map { "task \($0)" }, Self.words(eventType)]
                .compactMap { $0 }.joined(separator: ": ")
        }
    }

    /// "CollectionStarted" as "collection started".
    static func words(_ typeName: String) -> String {
        var words = ""
        for character in typeName {
            if character.isUppercase, !words.isEmpty { words.append(" ") }
            words.append(contentsOf: character.lowercased())
        }
        return words
    }
}
