import Foundation

/// A decompressed frame's raw bytes, shared by the records read from it.
final class FrameBuffer: @unchecked Sendable {
    // @unchecked: the bytes are written only while the decoder holds the only reference
    // (checked with isKnownUniquelyReferenced); once records share it, it is never written again.
    let bytes: UnsafeMutableRawBufferPointer

    init(capacity: Int) {
        bytes = .allocate(byteCount: max(capacity, 1), alignment: 16)
    }

    deinit { bytes.deallocate() }
}

/// The command id and payload of a record made in memory.
final class OwnedTail: Sendable {
    let commandID: String
    let payload: [UInt8]
    let fingerprint: CommandFingerprint?

    init(commandID: String, payload: [UInt8], fingerprint: CommandFingerprint? = nil) {
        self.commandID = commandID
        self.payload = payload
        self.fingerprint = fingerprint
    }
}

/// A record's command id and payload: either owned values, or ranges of the frame buffer the
/// record was decoded from (one allocation per frame instead of two per record); there the
/// command id is in its stored form (``CommandIDCodec``), turned into text when asked for.
///
/// The owner and the ranges are separate fields so that a decoder can move one record value
/// along a frame by changing only the ranges: no reference counting per record.
struct RecordTail: Sendable {
    enum Owner: Sendable {
        case owned(OwnedTail)
        case frame(FrameBuffer)
    }

    var owner: Owner
    /// Byte ranges of the command id and payload in the frame buffer (unused when owned).
    var command: UInt32 = 0
    var commandCount: UInt32 = 0
    var payloadStart: UInt32 = 0
    var payloadLength: UInt32 = 0

    static func owned(commandID: String, payload: [UInt8], fingerprint: CommandFingerprint? = nil) -> RecordTail {
        RecordTail(owner: .owned(OwnedTail(commandID: commandID, payload: payload, fingerprint: fingerprint)))
    }

    /// The command's fingerprint, stored in the first record of each append (nil in the others,
    /// and in records written before fingerprints were kept).
    var commandFingerprint: CommandFingerprint? {
        switch owner {
        case .owned(let tail): return tail.fingerprint
        case .frame(let buffer):
            return withExtendedLifetime(buffer) {
                CommandIDCodec.fingerprint(
                    UnsafeRawBufferPointer(rebasing: buffer.bytes[Int(command)..<Int(command + commandCount)]))
            }
        }
    }

    static func frame(
        _ buffer: FrameBuffer, command: UInt32, commandCount: UInt32, payload: UInt32, payloadCount: UInt32
    ) -> RecordTail {
        RecordTail(
            owner: .frame(buffer), command: command, commandCount: commandCount, payloadStart: payload,
            payloadLength: payloadCount)
    }

    var commandID: String {
        switch owner {
        case .owned(let tail): return tail.commandID
        case .frame(let buffer):
            return withExtendedLifetime(buffer) {
                CommandIDCodec.decode(
                    UnsafeRawBufferPointer(rebasing: buffer.bytes[Int(command)..<Int(command + commandCount)]))
            }
        }
    }

    var payload: [UInt8] {
        switch owner {
        case .owned(let tail): return tail.payload
        case .frame: return withPayload { [UInt8]($0) }
        }
    }

    var payloadCount: Int {
        switch owner {
        case .owned(let tail): return tail.payload.count
        case .frame: return Int(payloadLength)
        }
    }

    func withPayload<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch owner {
        case .owned(let tail): return try tail.payload.withUnsafeBytes(body)
        case .frame(let buffer):
            return try withExtendedLifetime(buffer) {
                try body(
                    UnsafeRawBufferPointer(
                        rebasing: buffer.bytes[Int(payloadStart)..<Int(payloadStart + payloadLength)]))
            }
        }
    }

    func commandIDEqual(_ other: RecordTail) -> Bool {
        commandID == other.commandID && commandFingerprint == other.commandFingerprint
    }
}
