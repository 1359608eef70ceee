import Foundation

/// The checkpoint file (`checkpoint` in the log directory): how far the log is verified, the
/// frame index up to there, and the on-disk runs that hold the stream and command-id index,
/// so opening checks and indexes only the frames after it and parses no per-event data.
///
/// ```
/// "IACKP004" | segment u32 | end offset u64 | last position u64 | last recorded-at i64
/// canonical head 32 | last format-2 frame hash 32 | hash mask u64 | next run sequence u64
/// frames: count u64, then per frame segment u32, offset u64, length u32, first position u64,
///         count u32, recorded-at i64
/// runs:   count u32, then per run kind u32, entry count u64, CRC32C u32, file name (varint + UTF-8)
/// CRC32C of everything before it, u32
/// ```
/// It is written to `checkpoint.tmp`, synced and renamed over the old one, so a crash leaves
/// either the old or the new checkpoint. It is a cache: when missing, damaged, naming a run
/// that is missing or damaged, or not matching the segments, it is ignored and the index is
/// rebuilt from the log. A format-2 checkpoint ("IACKP002", whose head was the frame chain's)
/// is read only for its claim of how far the log reached; the index is rebuilt. A format-3
/// checkpoint ("IACKP003") is not read: its log's segments are refused (see ``Segment``).
struct Checkpoint {
    static let fileName = "checkpoint"
    static let magic = Array("IACKP004".utf8)
    static let legacyMagic = Array("IACKP002".utf8)

    var segment: UInt32
    var endOffset: UInt64
    var index: LogIndex
    var runSequence: UInt64

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 128 + index.frames.count * 40)
        writer.bytes.append(contentsOf: Self.magic)
        writer.fixed(segment)
        writer.fixed(endOffset)
        writer.fixed(index.lastPosition)
        writer.fixed(index.lastRecordedAt)
        withUnsafeBytes(of: index.headHash) { writer.bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: index.legacyFrameHash) { writer.bytes.append(contentsOf: $0) }
        writer.fixed(index.keyHash.mask)
        writer.fixed(runSequence)
        writer.fixed(UInt64(index.frames.count))
        for frame in index.frames {
            writer.fixed(frame.segment)
            writer.fixed(frame.offset)
            writer.fixed(frame.length)
            writer.fixed(frame.firstPosition)
            writer.fixed(frame.count)
            writer.fixed(frame.recordedAt)
        }
        let runs = index.streamRuns + index.commandRuns
        writer.fixed(UInt32(runs.count))
        for run in runs {
            writer.fixed(run.kind.rawValue)
            writer.fixed(UInt64(run.count))
            writer.fixed(run.crc)
            writer.string(run.name)
        }
        writer.fixed(CRC32C.checksum(writer.bytes))
        return writer.bytes
    }

    /// Decodes a checkpoint file and maps the runs it names; nil when any of it is damaged,
    /// missing, or made with another hash mask than `keyHash`.
    static func decode(_ bytes: [UInt8], directory: URL, keyHash: KeyHash) throws -> Checkpoint? {
        guard bytes.count > 12, Array(bytes[0..<8]) == magic else { return nil }
        return try bytes.withUnsafeBytes { raw -> Checkpoint? in
            let body = UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 4)])
            let stored = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: raw.count - 4, as: UInt32.self))
            guard CRC32C.checksum(body) == stored else { return nil }
            var reader = ByteReader(body, offset: 8)
            do {
                let segment = try reader.fixed(UInt32.self)
                let end = try reader.fixed(UInt64.self)
                var index = LogIndex()
                index.keyHash = keyHash
                index.lastPosition = try reader.fixed(UInt64.self)
                index.lastRecordedAt = try reader.fixed(Int64.self)
                var hash = SHA256Digest.zero
                let hashBytes = try reader.fixedBytes(32)
                withUnsafeMutableBytes(of: &hash) { $0.copyMemory(from: hashBytes) }
                index.headHash = hash
                var legacy = SHA256Digest.zero
                let legacyBytes = try reader.fixedBytes(32)
                withUnsafeMutableBytes(of: &legacy) { $0.copyMemory(from: legacyBytes) }
                index.legacyFrameHash = legacy
                guard try reader.fixed(UInt64.self) == keyHash.mask else { return nil }
                let runSequence = try reader.fixed(UInt64.self)
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
                let runCount = Int(try reader.fixed(UInt32.self))
                for _ in 0..<runCount {
                    guard let kind = IndexRun.Kind(rawValue: try reader.fixed(UInt32.self)) else { return nil }
                    let count = Int(try reader.fixed(UInt64.self))
                    let crc = try reader.fixed(UInt32.self)
                    let name = String(decoding: try reader.slice(), as: UTF8.self)
                    guard !name.contains("/"),
                        let run = try IndexRun.open(
                            name: name, directory: directory, kind: kind, count: count, crc: crc, mask: keyHash.mask)
                    else { return nil }
                    if kind == .streams { index.streamRuns.append(run) } else { index.commandRuns.append(run) }
                }
                guard reader.remaining == 0, index.frames.last?.lastPosition ?? 0 == index.lastPosition else {
                    return nil
                }
                return Checkpoint(segment: segment, endOffset: end, index: index, runSequence: runSequence)
            } catch is ByteReaderError {
                return nil
            }
        }
    }

    /// How far the checkpoint of `directory` says the log reached (segment, end offset, last
    /// position), without opening its runs; nil when there is none or it is damaged.
    static func claim(in directory: URL) -> AcknowledgedMark? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(fileName).path),
            data.count > 40, Array(data.prefix(8)) == magic || Array(data.prefix(8)) == legacyMagic
        else { return nil }
        let bytes = [UInt8](data)
        return bytes.withUnsafeBytes { raw -> AcknowledgedMark? in
            let stored = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: raw.count - 4, as: UInt32.self))
            guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 4)])) == stored else {
                return nil
            }
            return AcknowledgedMark(
                segment: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)),
                endOffset: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self)),
                lastPosition: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 20, as: UInt64.self)))
        }
    }

    /// Reads the checkpoint of `directory`, or nil when there is none or it (or a run) is damaged.
    static func load(from directory: URL, keyHash: KeyHash) throws -> Checkpoint? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(fileName).path) else {
            return nil
        }
        return try decode([UInt8](data), directory: directory, keyHash: keyHash)
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

    /// Removes run files that `runs` does not name (left by a crash or replaced by a merge).
    static func removeUnusedRuns(in directory: URL, keeping runs: [IndexRun]) {
        let kept = Set(runs.map(\.name))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix("index-") && name.hasSuffix(".run") && !kept.contains(name) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
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
    /// Records how far the log is verified: writes the streams and command ids added since the
    /// last checkpoint as a new on-disk run, then the checkpoint naming the runs, so the next
    /// open checks only what follows and loads no per-event data. Merging runs is left to the
    /// ``IndexMerger`` thread; runs its merges replaced are deleted once this checkpoint,
    /// which no longer names them, is durable. Writer thread only.
    func writeCheckpoint() throws {
        applyCompletedMerges()
        let snapshot = stateLock.withLock { index }
        writer.bytesSinceCheckpoint = 0
        writer.eventsSinceCheckpoint = 0
        guard snapshot.lastPosition > 0 else { return }
        let entries = snapshot.recentRunEntries()
        var streamRuns = snapshot.streamRuns
        var commandRuns = snapshot.commandRuns
        let mask = snapshot.keyHash.mask
        func add(_ kind: IndexRun.Kind, _ bytes: [UInt8], _ count: Int, to runs: inout [IndexRun]) throws {
            guard count > 0 else { return }
            runs.append(
                try bytes.withUnsafeBytes {
                    try IndexRun.write(
                        kind: kind, entries: $0, count: count, mask: mask, name: merger.nextName(kind),
                        directory: directory)
                })
        }
        try add(.streams, entries.streams, entries.streamCount, to: &streamRuns)
        try add(.commands, entries.commands, entries.commandCount, to: &commandRuns)
        var saved = snapshot
        saved.streamRuns = streamRuns
        saved.commandRuns = commandRuns
        try Checkpoint(
            segment: writer.segment, endOffset: writer.segmentEnd, index: saved, runSequence: merger.lastSequence
        ).save(to: directory)
        // Only the writer thread changes the index, so nothing was added since the snapshot.
        stateLock.withLock {
            index.streamRuns = streamRuns
            index.commandRuns = commandRuns
            // Sized like the last one: the next checkpoint interval adds about as many ids.
            index.recent = RecentIndex(capacity: max(index.recent.commandCount, index.recent.streamCount))
        }
        for run in writer.retiredRuns {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(run.name))
        }
        writer.retiredRuns.removeAll()
        merger.submit(streams: streamRuns, commands: commandRuns)
    }

    /// Swaps the merges the ``IndexMerger`` finished into the index. Writer thread only.
    func applyCompletedMerges() {
        let merges = merger.takeCompleted()
        guard !merges.isEmpty else { return }
        stateLock.withLock {
            for merge in merges {
                if IndexMerger.apply(merge, to: &index.streamRuns) || IndexMerger.apply(merge, to: &index.commandRuns) {
                    writer.retiredRuns += merge.replaced
                } else {
                    writer.retiredRuns.append(merge.merged)
                }
            }
        }
    }
}
