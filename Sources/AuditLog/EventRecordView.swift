import Chronology
import Foundation

/// A record decoded in place inside the frame buffer, for the fastest replays: the numbers are
/// decoded, the strings and the payload are read only when asked for.
///
/// Valid only during the call that receives it: do not store it or let it escape; copy what
/// you need (``record`` gives a full ``EventRecord``).
public struct EventRecordView {
    public let position: UInt64
    public let streamVersion: UInt64
    public let schemaVersion: UInt16
    public let recordedAt: Timestamp
    public let occurredAt: Timestamp
    let streamBytes: UnsafeRawBufferPointer
    @usableFromInline let typeBytes: UnsafeRawBufferPointer
    let actorBytes: UnsafeRawBufferPointer
    /// The command id as ``CommandIDCodec`` stored it.
    let commandBytes: UnsafeRawBufferPointer
    @usableFromInline let payloadBytes: UnsafeRawBufferPointer

    /// The stream id.
    public var streamID: String { String(decoding: streamBytes, as: UTF8.self) }
    /// The event type name.
    public var eventType: String { String(decoding: typeBytes, as: UTF8.self) }
    /// Who caused the event.
    public var actor: String { String(decoding: actorBytes, as: UTF8.self) }
    /// The command that produced it.
    public var commandID: String { CommandIDCodec.decode(commandBytes) }
    /// A copy of the payload.
    public var payload: [UInt8] { [UInt8](payloadBytes) }
    /// The payload's length in bytes.
    public var payloadCount: Int { payloadBytes.count }

    /// Calls `body` with the payload bytes in place (valid only during the call). Inlinable: a
    /// replay calls it per record, and an opaque generic call looks its result type up each time.
    @inlinable
    public func withPayload<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(payloadBytes)
    }

    /// Calls `body` with the event type's UTF-8 bytes in place (valid only during the call).
    @inlinable
    public func withEventTypeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(typeBytes)
    }

    /// True when the event type is `name`, without making a String.
    public func hasEventType(_ name: String) -> Bool { Self.equal(typeBytes, name) }

    /// True when the stream id is `name`, without making a String.
    public func isInStream(_ name: String) -> Bool { Self.equal(streamBytes, name) }

    /// The full record, copied out of the frame.
    public var record: EventRecord {
        EventRecord(
            position: position, streamID: streamID, streamVersion: streamVersion, eventType: eventType,
            schemaVersion: schemaVersion, recordedAt: recordedAt, occurredAt: occurredAt, actor: actor,
            commandID: commandID, payload: payload, commandFingerprint: CommandIDCodec.fingerprint(commandBytes))
    }

    private static func equal(_ bytes: UnsafeRawBufferPointer, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            guard utf8.count == bytes.count else { return false }
            guard let wanted = utf8.baseAddress, let base = bytes.baseAddress else { return true }
            return memcmp(wanted, base, utf8.count) == 0
        }
    }
}
