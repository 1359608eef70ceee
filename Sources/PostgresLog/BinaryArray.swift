import AuditLog

/// Reads a one-dimensional PostgreSQL array in binary format element by element: a header
/// (dimensions, null flag, element type, then size and lower bound per dimension), then each
/// element as a 4-byte big-endian length (-1 for NULL) and its bytes.
struct BinaryArray {
    /// The number of elements.
    let count: Int
    private let bytes: UnsafeRawBufferPointer
    private var offset: Int
    private let column: String

    /// - Throws: ``AuditLog/EventLogError`` `.corruptFrame` when `bytes` is not a
    ///   one-dimensional array (naming `column`).
    init(_ bytes: UnsafeRawBufferPointer, column: String) throws {
        self.bytes = bytes
        self.column = column
        guard bytes.count >= 12 else { throw Self.damaged(column, "its header is cut short") }
        let dimensions = Int32(bigEndian: bytes.loadUnaligned(as: Int32.self))
        switch dimensions {
        case 0:
            count = 0
            offset = 12
        case 1:
            guard bytes.count >= 20 else { throw Self.damaged(column, "its header is cut short") }
            let size = Int32(bigEndian: bytes.loadUnaligned(fromByteOffset: 12, as: Int32.self))
            guard size >= 0 else { throw Self.damaged(column, "it claims \(size) elements") }
            count = Int(size)
            offset = 20
        default:
            throw Self.damaged(column, "it has \(dimensions) dimensions, not 1")
        }
    }

    /// The next element's bytes, nil for NULL (valid while the array's bytes are).
    /// - Throws: ``AuditLog/EventLogError`` `.corruptFrame` when the element runs past the end.
    mutating func next() throws -> UnsafeRawBufferPointer? {
        guard bytes.count - offset >= 4 else { throw Self.damaged(column, "an element is cut short") }
        let length = Int(Int32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
        offset += 4
        if length == -1 { return nil }
        guard length >= 0, bytes.count - offset >= length else {
            throw Self.damaged(column, "an element is cut short")
        }
        defer { offset += length }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
    }

    private static func damaged(_ column: String, _ what: String) -> EventLogError {
        EventLogError(.corruptFrame, "the \(column) array read from itemaudit_events is damaged: \(what)")
    }
}
