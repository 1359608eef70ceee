import AuditLog
import Inspection

extension AuditService {
    /// Folds every record after ``appliedPosition`` into the state, the stream versions and the
    /// command index.
    func catchUp() throws {
        let end = log.lastPosition
        guard end > appliedPosition else { return }
        var folded = state
        var versions = streamVersions
        var commands = commands
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
        do {
            try log.forEachRecord(from: appliedPosition + 1, upTo: end) { record in
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
                versions[record.streamID] = record.streamVersion
                position = record.position
                let event: InspectionEvent
                do throws(PayloadDecodingError) {
                    event = try InspectionEvent.decode(
                        eventType: record.eventType, schemaVersion: Int(record.schemaVersion), payload: record.payload)
                } catch {
                    guard error.isUnknownType else { throw error }
                    if let event = try IdentityEvent.decode(
                        eventType: record.eventType, schemaVersion: Int(record.schemaVersion), payload: record.payload)
                    {
                        if identityFolded == nil { identityFolded = identityDirectory.snapshot() }
                        identityFolded?.apply(
                            event, at: EventTime(microseconds: record.occurredAt.microsecondsSinceEpoch))
                        return
                    }
                    unknown += 1
                    return
                }
                folded.apply(event, at: EventTime(microseconds: record.occurredAt.microsecondsSinceEpoch))
                if let created = CommandRecord.createdID(by: event) { current?.createdID = created }
            }
        } catch let error as PayloadDecodingError {
            throw AuditServiceError(
                .corruptEvent, error.description, context: ["position": "\(position + 1)"])
        } catch {
            throw AuditServiceError(
                .log, "cannot read the event log: \(error)", context: ["position": "\(position + 1)"])
        }
        closeRun(current)
        state = folded
        streamVersions = versions
        self.commands = commands
        unknownRecords = unknown
        appliedPosition = position
        if let identityFolded { identity.replace(identityFolded) }
    }
}
