import NIOCore
import PostgresNIO

/// One column of a group's rows as an array parameter, written value by value straight into
/// PostgreSQL's binary array format (the layout ``BinaryArray`` reads): one buffer per column,
/// where Swift arrays of strings and byte buffers cost an allocation per value, and their
/// generic encoding walks every value again when the statement is sent.
struct ArrayColumn: PostgresDynamicTypeEncodable {
    /// The element types a group writes.
    enum Element {
        case int8, int4, text, bytea

        var arrayType: PostgresDataType {
            switch self {
            case .int8: .int8Array
            case .int4: .int4Array
            case .text: .textArray
            case .bytea: .byteaArray
            }
        }

        var type: PostgresDataType {
            switch self {
            case .int8: .int8
            case .int4: .int4
            case .text: .text
            case .bytea: .bytea
            }
        }
    }

    let element: Element
    /// Each value as a 4-byte big-endian length and its bytes.
    private var values = ByteBuffer()
    /// Where each value starts in `values`.
    private var starts: [Int] = []

    init(_ element: Element) { self.element = element }

    var count: Int { starts.count }
    var psqlType: PostgresDataType { element.arrayType }
    var psqlFormat: PostgresFormat { .binary }

    mutating func append(_ value: Int64) {
        starts.append(values.writerIndex)
        values.writeInteger(Int32(8))
        values.writeInteger(value)
    }

    mutating func append(_ value: Int32) {
        starts.append(values.writerIndex)
        values.writeInteger(Int32(4))
        values.writeInteger(value)
    }

    mutating func append(_ text: String) {
        starts.append(values.writerIndex)
        values.writeInteger(Int32(text.utf8.count))
        values.writeString(text)
    }

    mutating func append<Bytes: Collection<UInt8>>(bytes: Bytes) {
        starts.append(values.writerIndex)
        values.writeInteger(Int32(bytes.count))
        values.writeBytes(bytes)
    }

    /// Replaces the 8-byte value at `index` (an `int8` column).
    mutating func set(_ index: Int, to value: Int64) {
        values.setInteger(value, at: starts[index] + 4)
    }

    /// Drops the values from `count` on.
    mutating func truncate(to count: Int) {
        guard starts.count > count else { return }
        values.moveWriterIndex(to: starts[count])
        starts.removeLast(starts.count - count)
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        // Dimensions, has-NULLs flag, element type; then size and lower bound of the one dimension.
        buffer.writeInteger(Int32(starts.isEmpty ? 0 : 1))
        buffer.writeInteger(Int32(0))
        buffer.writeInteger(Int32(bitPattern: element.type.rawValue))
        guard !starts.isEmpty else { return }
        buffer.writeInteger(Int32(starts.count))
        buffer.writeInteger(Int32(1))
        buffer.writeImmutableBuffer(values)
    }
}
