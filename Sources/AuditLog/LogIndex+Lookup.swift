/// Reads and decodes the records of the frame with this ordinal (to verify an index hit).
typealias FrameRecordsReader = (UInt32) throws -> [EventRecord]

extension LogIndex {
    /// What `commandID` appended, or nil when it never was: recent ids in memory first, then
    /// the on-disk runs, each hit verified by reading the record it points to.
    func command(_ commandID: String, key: UInt64? = nil, frameRecords: FrameRecordsReader) throws -> CommandEntry? {
        var text = commandID
        let key = key ?? keyHash(commandID)
        return try text.withUTF8 { utf8 in
            try command(UnsafeRawBufferPointer(utf8), key: key, frameRecords: frameRecords)
        }
    }

    /// ``command(_:key:frameRecords:)`` for an id given as UTF-8 bytes with its hash.
    func command(_ id: UnsafeRawBufferPointer, key: UInt64, frameRecords: FrameRecordsReader) throws -> CommandEntry? {
        if let entry = recent.command(key: key, id: id) { return entry }
        var commandID: String?
        for run in commandRuns.reversed() {
            for entry in run.entries(for: key) {
                let position = run.u64(entry, at: 8)
                guard let ordinal = frameOrdinal(containing: position) else { continue }
                let records = try frameRecords(UInt32(ordinal))
                let wanted = commandID ?? String(decoding: id, as: UTF8.self)
                commandID = wanted
                guard let first = records.firstIndex(where: { $0.position == position }),
                    records[first].commandID == wanted
                else { continue }  // another id with the same hash
                // A command's events are contiguous, on one stream, in one frame.
                var last = first
                while last + 1 < records.count, records[last + 1].commandID == wanted,
                    records[last + 1].streamID == records[first].streamID
                {
                    last += 1
                }
                return CommandEntry(
                    firstPosition: position, count: UInt32(last - first + 1),
                    streamVersion: records[last].streamVersion, fingerprint: records[first].commandFingerprint)
            }
        }
        return nil
    }

    /// The current version of `stream` (0 when it has no events).
    func version(of stream: String, key: UInt64? = nil, frameRecords: FrameRecordsReader) throws -> UInt64 {
        var text = stream
        let key = key ?? keyHash(stream)
        return try text.withUTF8 { utf8 in
            try version(of: UnsafeRawBufferPointer(utf8), key: key, frameRecords: frameRecords)
        }
    }

    /// ``version(of:key:frameRecords:)`` for an id given as UTF-8 bytes with its hash.
    func version(of id: UnsafeRawBufferPointer, key: UInt64, frameRecords: FrameRecordsReader) throws -> UInt64 {
        if let version = recent.version(key: key, id: id) { return version }
        var stream: String?
        for run in streamRuns.reversed() {
            for entry in run.entries(for: key).reversed() {
                let records = try frameRecords(run.u32(entry, at: 8))
                let wanted = stream ?? String(decoding: id, as: UTF8.self)
                stream = wanted
                if let record = records.last(where: { $0.streamID == wanted }) { return record.streamVersion }
            }
        }
        return 0
    }

    /// The ordinals of the frames that may hold events of `stream` at or after `version`, in
    /// order. A hash collision can add frames of other streams: readers filter by stream id.
    func frameOrdinals(ofStream stream: String, fromVersion version: UInt64) -> [UInt32] {
        let key = keyHash(stream)
        var ordinals: [UInt32] = []
        for run in streamRuns {
            for entry in run.entries(for: key) {
                let count = UInt64(run.u32(entry, at: 12))
                let first = run.u64(entry, at: 16)
                if first + count > version { ordinals.append(run.u32(entry, at: 8)) }
            }
        }
        var text = stream
        let slot = text.withUTF8 { recent.streamSlot(key: key, id: UnsafeRawBufferPointer($0)) }
        if let slot {
            let frames = recent.frames(ofStreamAt: slot)
            let current = recent.streams[slot].version
            for (offset, frame) in frames.enumerated() {
                let next = offset + 1 < frames.count ? frames[offset + 1].firstVersion : current + 1
                if next > version { ordinals.append(frame.frame) }
            }
        }
        ordinals.sort()
        var unique: [UInt32] = []
        unique.reserveCapacity(ordinals.count)
        for ordinal in ordinals where unique.last != ordinal { unique.append(ordinal) }
        return unique
    }

    /// The entries of the recent streams and commands, sorted, as run bytes: what the next
    /// checkpoint writes to disk.
    func recentRunEntries() -> (streams: [UInt8], streamCount: Int, commands: [UInt8], commandCount: Int) {
        var commands: [(key: UInt64, position: UInt64)] = []
        commands.reserveCapacity(recent.commandCount)
        for command in recent.commands { commands.append((command.key, command.entry.firstPosition)) }
        HashSort.sort(&commands, key: \.key) { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        var commandBytes = ByteWriter(capacity: commands.count * IndexRun.Kind.commands.entrySize)
        for command in commands {
            commandBytes.fixed(command.key)
            commandBytes.fixed(command.position)
        }

        var streams: [(key: UInt64, frame: UInt32, count: UInt32, first: UInt64)] = []
        streams.reserveCapacity(recent.streamCount)
        for slot in recent.streams {
            var link = slot.firstLink
            while link >= 0 {
                let frame = recent.frameLinks[Int(link)]
                let next = frame.next >= 0 ? recent.frameLinks[Int(frame.next)].frame.firstVersion : slot.version + 1
                streams.append(
                    (
                        slot.key, frame.frame.frame, UInt32(truncatingIfNeeded: next - frame.frame.firstVersion),
                        frame.frame.firstVersion
                    ))
                link = frame.next
            }
        }
        HashSort.sort(&streams, key: \.key) { $0.key != $1.key ? $0.key < $1.key : $0.frame < $1.frame }
        var streamBytes = ByteWriter(capacity: streams.count * IndexRun.Kind.streams.entrySize)
        for stream in streams {
            streamBytes.fixed(stream.key)
            streamBytes.fixed(stream.frame)
            streamBytes.fixed(stream.count)
            streamBytes.fixed(stream.first)
        }
        return (streamBytes.bytes, streams.count, commandBytes.bytes, commands.count)
    }
}
