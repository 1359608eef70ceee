/// An event about one allocated task, reduced to what the folds read: the bulk of the log
/// (verdicts, photos, collection and inspection steps).
///
/// Made on the decoding thread, it holds no strings (the runner looks the task up by id and
/// passes its record along), so handing it to each fold costs no reference counting; the
/// attribute path comes as a number from ``AttributePathNumbers``.
public struct TaskEvent: Sendable, Hashable {
    /// The task-scoped event types.
    public enum Kind: UInt8, Sendable, Hashable {
        case productCollected, collectionSkipped, inspectionStarted, inspectionPaused
        case attributeVerdictRecorded, photoAttached, inspectionFinished, inspectionSkipped
        case photoDetached
    }

    /// Which task event it is.
    public var kind: Kind
    /// `CollectionSkipped`: the ``SkipReason``; `AttributeVerdictRecorded`: the ``Verdict``;
    /// `InspectionFinished`: the ``InspectionStatus``; `PhotoAttached` and `PhotoDetached`: the
    /// photo's ``photoKey(_:)``; otherwise 0.
    public var code: Int32 = 0
    /// `AttributeVerdictRecorded`: the path's number in the run's ``AttributePaths``.
    public var path: Int32 = 0
    /// `InspectionFinished`: attributes that passed.
    public var passed: Int32 = 0
    /// `InspectionFinished`: attributes with a warning.
    public var warning: Int32 = 0
    /// `InspectionFinished`: attributes that failed.
    public var failure: Int32 = 0
    /// `InspectionFinished`: attributes that could not be validated.
    public var unable: Int32 = 0

    /// `CollectionSkipped`'s reason.
    package var skipReason: SkipReason { SkipReason(rawValue: Int(code)) ?? .unableToCollect }
    /// `InspectionFinished`'s result.
    package var result: InspectionStatus { InspectionStatus(rawValue: Int(code)) ?? .failed }

    package init(_ kind: Kind) { self.kind = kind }

    /// A photo's SHA-256 (lower-case hex) reduced to its first 8 hex digits as a number: enough
    /// for a fold without strings to pair a `PhotoDetached` with its task's `PhotoAttached` (a
    /// task holds a handful of photos; the hash itself is read from the log where it is shown).
    package static func photoKey<Bytes: Collection<UInt8>>(_ hex: Bytes) -> Int32 {
        var key: UInt32 = 0
        for digit in hex.prefix(8) {
            let value: UInt8 =
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit &- UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit &- UInt8(ascii: "a") &+ 10
                default: 0
                }
            key = key << 4 | UInt32(value)
        }
        return Int32(bitPattern: key)
    }

    /// The task event `event` is, nil for any other event (allocations, batch and reference
    /// events); attribute paths are numbered by `paths`. The task id is `event.taskID`.
    package init?(_ event: InspectionEvent, paths: inout AttributePathNumbers) {
        switch event {
        case .productCollected: self.init(.productCollected)
        case .collectionSkipped(let event):
            self.init(.collectionSkipped)
            code = Int32(event.reason.rawValue)
        case .inspectionStarted: self.init(.inspectionStarted)
        case .inspectionPaused: self.init(.inspectionPaused)
        case .attributeVerdictRecorded(let event):
            self.init(.attributeVerdictRecorded)
            code = Int32(event.verdict.rawValue)
            path = paths.number(event.path)
        case .photoAttached(let event):
            self.init(.photoAttached)
            code = Self.photoKey(event.sha256.utf8)
        case .photoDetached(let event):
            self.init(.photoDetached)
            code = Self.photoKey(event.sha256.utf8)
        case .inspectionFinished(let event):
            self.init(.inspectionFinished)
            code = Int32(event.result.rawValue)
            passed = Int32(clamping: event.passedCount)
            warning = Int32(clamping: event.warningCount)
            failure = Int32(clamping: event.failureCount)
            unable = Int32(clamping: event.unableCount)
        case .inspectionSkipped: self.init(.inspectionSkipped)
        default: return nil
        }
    }

    /// The task id a task event's payload starts with, read without the rest of the payload;
    /// nil for a version ``decode(_:schemaVersion:payload:paths:taskID:)`` does not know, or a
    /// payload that does not start with a string (the caller then decodes it in full).
    package static func taskID(_ kind: Kind, schemaVersion: Int, payload: UnsafeRawBufferPointer) -> String? {
        guard schemaVersion == kind.schemaVersion else { return nil }
        var reader = PayloadReader(payload)
        return try? reader.string()
    }

    /// Reads a task event's payload straight into a `TaskEvent` and its `taskID`, making no
    /// other string (the full decode makes every field's). Reads the fields exactly as
    /// `InspectionEvent.decode(_:schemaVersion:payload:)` does, bounds checks included.
    ///
    /// Nil for a version this reader does not know, or a payload that fails a check: the caller
    /// then decodes it in full, which says what is wrong (or upcasts an older version).
    package static func decode(
        _ kind: Kind, schemaVersion: Int, payload: UnsafeRawBufferPointer, paths: inout AttributePathNumbers,
        taskID: inout String
    ) -> TaskEvent? {
        var reader = PayloadReader(payload)
        var event = TaskEvent(kind)
        do throws(PayloadDecodingError) {
            switch (kind, schemaVersion) {
            case (.productCollected, ProductCollected.schemaVersion):
                taskID = try reader.string()
                try reader.skipString()
                try reader.skipString()
            case (.collectionSkipped, CollectionSkipped.schemaVersion):
                taskID = try reader.string()
                event.code = Int32(try reader.code(SkipReason.self).rawValue)
            case (.inspectionStarted, InspectionStarted.schemaVersion),
                (.inspectionPaused, InspectionPaused.schemaVersion):
                taskID = try reader.string()
            case (.attributeVerdictRecorded, AttributeVerdictRecorded.schemaVersion):
                taskID = try reader.string()
                event.path = paths.number(try reader.stringBytes())
                event.code = Int32(try reader.code(Verdict.self).rawValue)
                try reader.skipOptionalString()
                try reader.skipOptionalString()
            case (.photoAttached, PhotoAttached.schemaVersion):
                taskID = try reader.string()
                event.code = Self.photoKey(try reader.stringBytes())
                _ = try reader.integer()
                try reader.skipString()
            case (.photoDetached, PhotoDetached.schemaVersion):
                taskID = try reader.string()
                event.code = Self.photoKey(try reader.stringBytes())
            case (.inspectionFinished, InspectionFinished.schemaVersion):
                taskID = try reader.string()
                event.code = Int32(try reader.code(InspectionStatus.self).rawValue)
                event.passed = Int32(clamping: try reader.integer())
                event.warning = Int32(clamping: try reader.integer())
                event.failure = Int32(clamping: try reader.integer())
                event.unable = Int32(clamping: try reader.integer())
            case (.inspectionSkipped, InspectionSkipped.schemaVersion):
                taskID = try reader.string()
                try reader.skipString()
            default:
                return nil
            }
        } catch {
            return nil
        }
        return reader.isAtEnd ? event : nil
    }
}

extension TaskEvent.Kind {
    /// The schema version ``TaskEvent/decode(_:schemaVersion:payload:paths:taskID:)`` reads.
    var schemaVersion: Int {
        switch self {
        case .productCollected: ProductCollected.schemaVersion
        case .collectionSkipped: CollectionSkipped.schemaVersion
        case .inspectionStarted: InspectionStarted.schemaVersion
        case .inspectionPaused: InspectionPaused.schemaVersion
        case .attributeVerdictRecorded: AttributeVerdictRecorded.schemaVersion
        case .photoAttached: PhotoAttached.schemaVersion
        case .inspectionFinished: InspectionFinished.schemaVersion
        case .inspectionSkipped: InspectionSkipped.schemaVersion
        case .photoDetached: PhotoDetached.schemaVersion
        }
    }
}
