import Chronology

/// What another store in this package (PostgresLog) needs to build the log's own value types:
/// records views over its own buffers, fingerprints from stored bytes, verification reports.

extension EventRecordView {
    /// A view over fields another store keeps in its own buffer (valid while that buffer is).
    /// `encodedCommandID` is the command id as ``encodeCommandID(_:into:)`` wrote it.
    package init(
        position: UInt64, streamVersion: UInt64, schemaVersion: UInt16, recordedAt: Timestamp, occurredAt: Timestamp,
        stream: UnsafeRawBufferPointer, eventType: UnsafeRawBufferPointer, actor: UnsafeRawBufferPointer,
        encodedCommandID: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer
    ) {
        self.init(
            position: position, streamVersion: streamVersion, schemaVersion: schemaVersion, recordedAt: recordedAt,
            occurredAt: occurredAt, streamBytes: stream, typeBytes: eventType, actorBytes: actor,
            commandBytes: encodedCommandID, payloadBytes: payload)
    }

    /// Appends the encoded form of the command id `text` (UTF-8) to `bytes`, for the init above.
    package static func encodeCommandID(_ text: UnsafeRawBufferPointer, into bytes: inout [UInt8]) {
        var writer = ByteWriter()
        swap(&writer.bytes, &bytes)
        CommandIDCodec.encode(text, into: &writer)
        swap(&writer.bytes, &bytes)
    }
}

extension CommandFingerprint {
    /// The fingerprint kept in these 16 bytes (nil when there are not 16).
    package init?(storedBytes bytes: UnsafeRawBufferPointer) {
        guard bytes.count == Self.byteCount else { return nil }
        self.init(stored: bytes)
    }

    /// The 16 bytes a store keeps.
    package var storedBytes: [UInt8] { withBytes { [UInt8]($0) } }
}

extension VerificationReport {
    /// A report for a store without segments or frames: what it counted and the first problem.
    package init(
        eventCount: UInt64, lastPosition: UInt64, headHash: String, bytes: UInt64, problem: VerificationProblem?
    ) {
        self.init(
            eventCount: eventCount, lastPosition: lastPosition, headHash: headHash, frameCount: 0, segmentCount: 0,
            bytes: bytes, problem: problem, unfinishedWrite: nil)
    }
}

extension VerificationProblem {
    /// A problem at `place` (a table, a row) with the positions involved.
    package init(place: String, firstPosition: UInt64?, lastPosition: UInt64?, reason: String) {
        self.init(segment: place, offset: 0, firstPosition: firstPosition, lastPosition: lastPosition, reason: reason)
    }
}

extension VerificationProgress {
    /// Progress counted in whatever unit the store checks by (positions, for a database).
    package init(checked: UInt64, total: UInt64) { self.init(bytesChecked: checked, totalBytes: total) }
}
