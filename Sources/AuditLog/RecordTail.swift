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

/// A record's command id and payload: either owned values, or ranges of the frame buffer the
/// record was decoded from (one allocation per frame instead of two per record); there the
/// command id is in its stored form (``CommandIDCodec``), turned into text when asked for.
enum RecordTail: Sendable {
    case owned(commandID: String, payload: [UInt8])
    case frame(FrameBuffer, command: UInt32, commandCount: UInt32, payload: UInt32, payloadCount: UInt32)

    var commandID: String {
        switch self {
        case .owned(let commandID, _): return commandID
        case .frame(let buffer, let start, let count, _, _):
            return withExtendedLifetime(buffer) {
                CommandIDCodec.decode(UnsafeRawBufferPointer(rebasing: buffer.bytes[Int(start)..<Int(start + count)]))
            }
        }
    }

    var payload: [UInt8] {
        switch self {
        case .owned(_, let payload): return payload
        case .frame: return withPayload { [UInt8]($0) }
        }
    }

    var payloadCount: Int {
        switch self {
        case .owned(_, let payload): return payload.count
        case .frame(_, _, _, _, let count): return Int(count)
        }
    }

    func withPayload<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch self {
        case .owned(_, let payload): return try payload.withUnsafeBytes(body)
        case .frame(let buffer, _, _, let start, let count):
            return try withExtendedLifetime(buffer) {
                try body(UnsafeRawBufferPointer(rebasing: buffer.bytes[Int(start)..<Int(start + count)]))
            }
        }
    }

    func commandIDEqual(_ other: RecordTail) -> Bool {
        commandID == other.commandID
    }
}
