import Foundation

/// The checkpoint file (`checkpoint` in the log directory): how far the log is verified and
/// the index up to there, so opening checks and indexes only the frames after it.
///
/// ```
/// "IACKP001" | segment u32 | end offset u64 | last position u64 | last recorded-at i64 | head hash 32
/// frames:   count u64, then per frame segment u32, offset u64, length u32, first position u64,
///           count u32, recorded-at i64
/// streams:  count u64, then per stream id (varint length + UTF-8), version, frame count, and
///           per frame (ordinal, first version) — all varints
/// commands: count u64, then per command id (varint length + UTF-8), first position, count,
///           stream version — varints
/// CRC32C of everything before it, u32
/// ```
/// It is written to `checkpoint.tmp`, synced and renamed over the old one, so a crash leaves
/// either the old or the new checkpoint. It is a cache: when missing, damaged or not matching
/// the segments it is ignored and the index is rebuilt from the log.
struct Checkpoint {
    static let fileName = "checkpoint"
    static let magic = Array("IACKP001".utf8)

    var segment: UInt32
    var endOffset: UInt64
    var index: LogIndex

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 64 + index.frames.count * 40 + index.commands.count * 40)
        writer.bytes.append(contentsOf: Self.magic)
        writer.fixed(segment)
        writer.fixed(endOffset)
        writer.fixed(index.lastPosition)
        writer.fixed(index.lastRecordedAt)
        withUnsafeBytes(of: index.headHash) { writer.bytes.append(contentsOf: $0) }
        writer.fixed(UInt64(index.frames.count))
        for frame in index.frames {
            writer.fixed(frame.segment)
            writer.fixed(frame.offset)
            writer.fixed(frame.length)
            writer.fixed(frame.firstPosition)
            writer.fixed(frame.count)
            writer.fixed(frame.recordedAt)
        }
        writer.fixed(UInt64(index.streams.count))
        for (stream, state) in index.streams {
            writer.string(stream)
            writer.varint(state.version)
            writer.varint(UInt64(state.frames.count))
            for frame in state.frames {
                writer.varint(UInt64(frame.frame))
                writer.varint(frame.firstVersion)
            }
        }
        writer.fixed(UInt64(index.commands.count))
        for (command, entry) in index.commands {
            writer.string(command)
            writer.varint(entry.firstPosition)
            writer.varint(UInt64(entry.count))
            writer.varint(entry.streamVersion)
        }
        writer.fixed(CRC32C.checksum(writer.bytes))
        return writer.bytes
    }

    /// Decodes a checkpoint file; nil when it is damaged or not one.
    static func decode(_ bytes: [UInt8]) -> Checkpoint? {
        guard bytes.count > 12, Array(bytes[0..<8]) == magic else { return nil }
        return bytes.withUnsafeBytes { raw -> Checkpoint? in
            let body = UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 4)])
            let stored = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: raw.count - 4, as: UInt32.self))
            guard CRC32C.checksum(body) == stored else { return nil }
            var reader = ByteReader(body, offset: 8)
            do {
                let segment = try reader.fixed(UInt32.self)
                let end = try reader.fixed(UInt64.self)
                var index = LogIndex()
                index.lastPosition = try reader.fixed(UInt64.self)
                index.lastRecordedAt = try reader.fixed(Int64.self)
                var hash = SHA256Digest.zero
                let hashBytes = try reader.fixedBytes(32)
                withUnsafeMutableBytes(of: &hash) { $0.copyMemory(from: hashBytes) }
                index.headHash = hash
                let frameCount = Int(try reader.fixed(UInt64.self))
                guard frameCount <= reader.remaining / 36 else { return nil }
                index.frames.reserveCapacity(frameCount)
                for _ in 0..<frameCount {
                    index.frames.append(
                        FrameLocation(
                            segment: try reader.fixed(UInt32.self), offset: try reader.fixed(UInt64.self),
                            length: try reader.fixed(UInt32.self), firstPosition: try reader.fixed(UInt64.self),
                            count: try reader.fixed(UInt32.self), recordedAt: try reader.fixed(Int64.self)))
                }
                let streamCount = Int(try reader.fixed(UInt64.self))
                guard streamCount <= reader.remaining else { return nil }
                index.streams.reserveCapacity(streamCount)
                for _ in 0..<streamCount {
                    let stream = String(decoding: try reader.slice(), as: UTF8.self)
                    var state = StreamState(version: try reader.varint(), frames: [])
                    let count = Int(try reader.varint())
                    guard count <= reader.remaining else { return nil }
                    state.frames.reserveCapacity(count)
                    for _ in 0..<count {
                        state.frames.append(
                            StreamFrame(
                                frame: UInt32(truncatingIfNeeded: try reader.varint()),
                                firstVersion: try reader.varint()))
                    }
                    index.streams[stream] = state
                }
                let commandCount = Int(try reader.fixed(UInt64.self))
                guard commandCount <= reader.remaining else { return nil }
                index.commands.reserveCapacity(commandCount)
                for _ in 0..<commandCount {
                    let command = String(decoding: try reader.slice(), as: UTF8.self)
                    index.commands[command] = CommandEntry(
                        firstPosition: try reader.varint(), count: UInt32(truncatingIfNeeded: try reader.varint()),
                        streamVersion: try reader.varint())
                }
                guard reader.remaining == 0, index.frames.last?.lastPosition ?? 0 == index.lastPosition else {
                    return nil
                }
                return Checkpoint(segment: segment, endOffset: end, index: index)
            } catch {
                return nil
            }
        }
    }

    /// Reads the checkpoint of `directory`, or nil when there is none or it is damaged.
    static func load(from directory: URL) -> Checkpoint? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(fileName).path) else {
            return nil
        }
        return decode([UInt8](data))
    }

    /// Writes atomically: temporary file, sync, rename, sync the directory.
    func save(to directory: URL) throws {
        let temporary = directory.appendingPathComponent(Self.fileName + ".tmp")
        let file = try LogFile.open(temporary, writable: true, create: true)
        try file.truncate(to: 0)
        try encoded().withUnsafeBytes { try file.write($0, at: 0) }
        try file.sync()
        guard rename(temporary.path, directory.appendingPathComponent(Self.fileName).path) == 0 else {
            throw LogFile.ioError("cannot rename", url: temporary)
        }
        try LogFile.syncDirectory(directory)
    }
}

extension ByteReader {
    mutating func fixedBytes(_ count: Int) throws(ByteReaderError) -> UnsafeRawBufferPointer {
        guard offset + count <= end else { throw ByteReaderError() }
        defer { offset += count }
        return UnsafeRawBufferPointer(start: base + offset, count: count)
    }
}

extension EventLog {
    /// Records how far the log is verified, with the index, so the next open checks only what follows.
    func writeCheckpoint() throws {
        let snapshot = stateLock.withLock { index }
        writer.bytesSinceCheckpoint = 0
        guard snapshot.lastPosition > 0 else { return }
        try Checkpoint(segment: writer.segment, endOffset: writer.segmentEnd, index: snapshot).save(to: directory)
    }
}
