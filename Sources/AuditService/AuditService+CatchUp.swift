import AuditLog
import Chronology
import Inspection

extension AuditService {
    /// Folds every record after ``appliedPosition`` into the state (stream versions and command
    /// ids are the log store's to answer: see ``streamState(of:)`` and ``repeatOutcome(_:)``).
    func catchUp() throws {
        let end = log.lastPosition
        guard end > appliedPosition else { return }
        // The group writer's copy lacks what is folded here: its next group starts from the state.
        workingReplica = nil
        // Folded in place: the properties are moved out (nothing is copied, which with a large
        // catalogue cost more than the records themselves) and moved back, also on an error, with
        // ``appliedPosition`` at the last record folded.
        var folded = InspectionState()
        swap(&folded, &state)
        var unknown = unknownRecords
        var position = appliedPosition
        var identityFolded: IdentityState?
        let identityDirectory = identity
        defer {
            state = folded
            unknownRecords = unknown
            appliedPosition = position
            if let identityFolded { identity.replace(identityFolded) }
        }
        do {
            try log.forEachRecord(from: appliedPosition + 1, upTo: end) { record in
                // Decoded first: a record that does not decode is not folded.
                var event: InspectionEvent?
                var identityEvent: IdentityEvent?
                do throws(PayloadDecodingError) {
                    event = try InspectionEvent.decode(
                        eventType: record.eventType, schemaVersion: Int(record.schemaVersion), payload: record.payload)
                } catch {
                    guard error.isUnknownType else { throw error }
                    identityEvent = try IdentityEvent.decode(
                        eventType: record.eventType, schemaVersion: Int(record.schemaVersion), payload: record.payload)
                }
                let time = record.occurredAt
                if let event {
                    folded.apply(event, at: time)
                } else if let identityEvent {
                    if identityFolded == nil { identityFolded = identityDirectory.snapshot() }
                    identityFolded?.apply(identityEvent, at: time)
                } else {
                    unknown += 1
                }
                position = record.position
            }
        } catch let error as PayloadDecodingError {
            throw AuditServiceError(
                .corruptEvent, error.description, context: ["position": "\(position + 1)"])
        } catch {
            throw AuditServiceError(
                .log, "cannot read the event log: \(error)", context: ["position": "\(position + 1)"])
        }
    }

    /// Catches up with the store when `position` lies beyond what is folded: first learning of
    /// appends other processes made to a shared store, then folding.
    func catchUp(through position: UInt64) async throws {
        if position > log.lastPosition {
            do {
                _ = try await log.refresh()
            } catch {
                throw AuditServiceError.store(error, "cannot read the event log")
            }
        }
        try catchUp()
    }

    /// The stream's version in the store and how far its events reach.
    func streamState(of stream: String) async throws -> StreamState {
        do {
            return try await log.streamState(of: stream)
        } catch {
            throw AuditServiceError.store(error, "cannot read the version of stream \(stream)")
        }
    }

    /// What a command id created, read from the records it appended (for a duplicate's answer).
    func createdID(at positions: ClosedRange<UInt64>) -> String? {
        var created: String?
        try? log.forEachRecord(from: positions.lowerBound, upTo: positions.upperBound) { record in
            guard created == nil,
                let event = try? InspectionEvent.decode(
                    eventType: record.eventType, schemaVersion: Int(record.schemaVersion), payload: record.payload)
            else { return }
            created = event.createdID
        }
        return created
    }
}
