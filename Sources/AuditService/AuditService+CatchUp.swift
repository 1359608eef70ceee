import AuditLog
import Inspection

extension AuditService {
    /// Folds every record after ``appliedPosition`` into the state, the stream versions and the
    /// command index.
    func catchUp() throws {
        let end = log.lastPosition
        guard end > appliedPosition else { return }
        // Folded in place: the properties are moved out (nothing is copied, which with a large
        // catalogue cost more than the records themselves) and moved back, also on an error, with
        // ``appliedPosition`` at the last record folded.
        var folded = InspectionState()
        swap(&folded, &state)
        var versions: [String: UInt64] = [:]
        swap(&versions, &streamVersions)
        var commands: [String: CommandRecord] = [:]
        swap(&commands, &self.commands)
        var unknown = unknownRecords
        var position = appliedPosition
        var identityFolded: IdentityState?
        let identityDirectory = identity
        // Consecutive records usually share a command and a stream: index each run once.
        var runCommand = ""
        var runStream = ""
        var runFirst: UInt64 = 0
        var runFingerprint: CommandFingerprint?
        func closeRun(_ record: CommandRecord?) {
            if let record { commands[runCommand] = record }
        }
        var current: CommandRecord?
        defer {
            closeRun(current)
            state = folded
            streamVersions = versions
            self.commands = commands
            unknownRecords = unknown
            appliedPosition = position
            if let identityFolded { identity.replace(identityFolded) }
        }
        do {
            try log.forEachRecord(from: appliedPosition + 1, upTo: end) { record in
                // Decoded first: a record that does not decode leaves no trace in the indexes.
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
                let sameRun = record.commandID == runCommand && record.streamID == runStream
                if !sameRun {
                    closeRun(current)
                    runCommand = record.commandID
                    runStream = record.streamID
                    runFirst = record.position
                    runFingerprint = record.commandFingerprint
                }
                current = CommandRecord(
                    stream: record.streamID, firstPosition: runFirst, lastPosition: record.position,
                    streamVersion: record.streamVersion, fingerprint: runFingerprint,
                    createdID: sameRun ? current?.createdID : nil)
                let time = EventTime(microseconds: record.occurredAt.microsecondsSinceEpoch)
                if let event {
                    folded.apply(event, at: time)
                    if let created = CommandRecord.createdID(by: event) { current?.createdID = created }
                } else if let identityEvent {
                    if identityFolded == nil { identityFolded = identityDirectory.snapshot() }
                    identityFolded?.apply(identityEvent, at: time)
                } else {
                    unknown += 1
                }
                versions[record.streamID] = record.streamVersion
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
}
