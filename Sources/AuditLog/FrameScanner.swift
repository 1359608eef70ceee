/// Walks the frames of one segment file in order, reading it in large chunks.
struct FrameScanner {
    /// A frame found at `offset`; its bytes stay valid until the next call to ``next()``.
    struct Frame {
        var header: FrameHeader
        var storedCRC: UInt32
        var offset: UInt64
        fileprivate var start: Int
    }

    enum Step {
        case frame(Frame)
        /// The segment ends cleanly at this offset.
        case end(UInt64)
        /// The bytes at `offset` are not a whole, well-formed frame.
        case damaged(offset: UInt64, reason: String)
    }

    let file: LogFile
    private(set) var offset: UInt64
    let end: UInt64
    private var buffer: [UInt8]
    private var bufferOffset: UInt64 = 0
    private var bufferCount = 0

    /// Scans `file` from `offset` up to `end` (the file's size when nil).
    init(file: LogFile, from offset: UInt64, to end: UInt64? = nil, chunkSize: Int = 8 << 20) throws {
        self.file = file
        self.offset = offset
        self.end = try end ?? file.size()
        // No larger than what is to be read: a read of one record (a page's log head, a stream's
        // few frames) would otherwise zero and fault in 8 MB each time.
        buffer = [UInt8](repeating: 0, count: Int(min(UInt64(chunkSize), self.end - min(offset, self.end))))
        bufferOffset = offset
    }

    mutating func next() throws -> Step {
        guard offset < end else { return .end(offset) }
        guard try ensure(FrameHeader.size) else {
            return .damaged(offset: offset, reason: "the segment ends inside a frame header (torn write)")
        }
        let start = Int(offset - bufferOffset)
        let parsed = buffer.withUnsafeBytes { raw in
            FrameHeader.parse(UnsafeRawBufferPointer(rebasing: raw[start..<(start + FrameHeader.size)]))
        }
        guard let (header, crc) = parsed else {
            return .damaged(offset: offset, reason: "no valid frame header (bad magic, length or count)")
        }
        guard try ensure(header.totalLength) else {
            return .damaged(offset: offset, reason: "the segment ends inside the frame body (torn write)")
        }
        let frame = Frame(header: header, storedCRC: crc, offset: offset, start: Int(offset - bufferOffset))
        offset += UInt64(header.totalLength)
        return .frame(frame)
    }

    /// The bytes of `frame` (header and body), valid until the next call to ``next()``.
    func withBytes<R>(of frame: Frame, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withUnsafeBytes { raw in
            try body(UnsafeRawBufferPointer(rebasing: raw[frame.start..<(frame.start + frame.header.totalLength)]))
        }
    }

    /// Makes `count` bytes from `offset` available in the buffer; false when the file ends first.
    private mutating func ensure(_ count: Int) throws -> Bool {
        guard offset + UInt64(count) <= end else { return false }
        let have = Int(bufferOffset + UInt64(bufferCount)) - Int(offset)
        if offset >= bufferOffset, have >= count { return true }
        if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
        let wanted = Int(min(UInt64(buffer.count), end - offset))
        let read = try buffer.withUnsafeMutableBytes { raw in
            try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wanted]), at: offset)
        }
        bufferOffset = offset
        bufferCount = read
        return read >= count
    }
}
