/// Little-endian fixed-width integers and LEB128 varints, written into a growing byte array
/// (package: the photo store's packs use it too).
package struct ByteWriter {
    package var bytes: [UInt8]

    package init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    package mutating func fixed<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func zigzag(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Appends a copy of bytes already written.
    mutating func repeatBytes(_ range: Range<Int>) {
        withUnsafeTemporaryAllocation(byteCount: range.count, alignment: 8) { copy in
            bytes.withUnsafeBytes { copy.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[range])) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(copy))
        }
    }

    /// Appends `count` bytes that `fill` writes.
    mutating func append(count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) {
        withUnsafeTemporaryAllocation(byteCount: count, alignment: 8) { buffer in
            fill(buffer)
            bytes.append(contentsOf: UnsafeRawBufferPointer(buffer))
        }
    }
}

/// Reads what ``ByteWriter`` wrote from borrowed memory; every read checks the bounds.
struct ByteReader {
    let base: UnsafeRawPointer
    let end: Int
    var offset: Int

    init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        // An empty buffer may have no base address; any non-nil pointer works since nothing is read.
        base = buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        end = buffer.count
        self.offset = offset
    }

    var remaining: Int { end - offset }

    @inline(__always)
    mutating func fixed<T: FixedWidthInteger>(_: T.Type) throws(ByteReaderError) -> T {
        let size = MemoryLayout<T>.size
        guard offset + size <= end else { throw ByteReaderError() }
        defer { offset += size }
        return T(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    @inline(__always)
    mutating func varint() throws(ByteReaderError) -> UInt64 {
        guard offset < end else { throw ByteReaderError() }
        let first = base.load(fromByteOffset: offset, as: UInt8.self)
        if first < 0x80 {
            offset += 1
            return UInt64(first)
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end, shift < 64 else { throw ByteReaderError() }
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    @inline(__always)
    mutating func zigzag() throws(ByteReaderError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// Moves past `count` bytes.
    @inline(__always)
    mutating func skip(_ count: UInt64) throws(ByteReaderError) {
        guard count <= UInt64(end - offset) else { throw ByteReaderError() }
        offset += Int(count)
    }

    /// A length-prefixed byte range, as a pointer into the buffer.
    @inline(__always)
    mutating func slice() throws(ByteReaderError) -> UnsafeRawBufferPointer {
        let count = try varint()
        guard count <= UInt64(end - offset) else { throw ByteReaderError() }
        defer { offset += Int(count) }
        return UnsafeRawBufferPointer(start: base + offset, count: Int(count))
    }
}

/// A read ran past the end of its buffer: the bytes are not what the writer wrote.
struct ByteReaderError: Error {}
