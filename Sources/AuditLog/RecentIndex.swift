import CPrefetch
import Foundation

/// The streams and command ids appended since the last checkpoint, in flat open-addressing
/// tables keyed by their 64-bit ``KeyHash`` and checked against the id's bytes.
///
/// Everything is plain data (entries in insertion order, ids in one byte arena, a stream's frames
/// in one link array), so the writer's lookups and inserts hash nothing again and touch no
/// reference count. The tables probed hold only a tag (the key, low bit set) and the entry's
/// index, so a miss — the common case, a new id — reads one small cell, not an entry. Two ids
/// with the same hash simply take two entries: a hit needs the key and the bytes to match.
struct RecentIndex: Sendable {
    /// A stream: its id, current version and its frames (a list in ``frameLinks``).
    struct StreamSlot: RecentEntry {
        var key: UInt64 = 0
        var id = 0
        var idCount: Int32 = 0
        var firstLink: Int32 = -1
        var lastLink: Int32 = -1
        var version: UInt64 = 0
    }

    /// A command id and what it appended.
    struct CommandSlot: RecentEntry {
        var key: UInt64 = 0
        var id = 0
        var idCount: Int32 = 0
        var entry = CommandEntry(firstPosition: 0, count: 0, streamVersion: 0)
    }

    /// One frame a stream has events in, and the next link of that stream (-1 at the end).
    struct FrameLink: Sendable {
        var frame: StreamFrame
        var next: Int32
    }

    /// Entries in the order they were added.
    private(set) var streams: [StreamSlot] = []
    private(set) var commands: [CommandSlot] = []
    private(set) var frameLinks: [FrameLink] = []
    private var ids: [UInt8] = []
    /// Open-addressing tables: a tag (0 when the cell is empty) and the entry's index.
    private var streamTags: [UInt64]
    private var streamCells: [Int32]
    private var commandTags: [UInt64]
    private var commandCells: [Int32]

    /// Room for about `capacity` streams and commands before the tables grow.
    init(capacity: Int = 64) {
        let cells = Self.cellCount(for: capacity)
        streamTags = [UInt64](repeating: 0, count: cells)
        streamCells = [Int32](repeating: -1, count: cells)
        commandTags = streamTags
        commandCells = streamCells
        commands.reserveCapacity(capacity)
    }

    var streamCount: Int { streams.count }
    var commandCount: Int { commands.count }
    var isEmpty: Bool { streams.isEmpty && commands.isEmpty }

    private static func cellCount(for capacity: Int) -> Int {
        var cells = 16
        while cells < capacity * 2 { cells <<= 1 }
        return cells
    }

    @inline(__always)
    private static func tag(_ key: UInt64) -> UInt64 { key | 1 }

    // MARK: Lookups

    /// The index of the stream with this key and id in ``streams``, or nil.
    func streamSlot(key: UInt64, id: UnsafeRawBufferPointer) -> Int? {
        Self.probe(streamTags, streamCells, streams, ids, key: key, id: id)
    }

    /// The current version of the stream with this key and id, or nil when it is not recent.
    func version(key: UInt64, id: UnsafeRawBufferPointer) -> UInt64? {
        streamSlot(key: key, id: id).map { streams[$0].version }
    }

    /// The index of the command with this key and id in ``commands``, or nil.
    private func commandSlot(key: UInt64, id: UnsafeRawBufferPointer) -> Int? {
        Self.probe(commandTags, commandCells, commands, ids, key: key, id: id)
    }

    /// Finds the entry with `key` whose id bytes in `arena` are `id`: linear probing over the
    /// tags from the key's cell; a miss stops at the first empty cell.
    private static func probe<Entry: RecentEntry>(
        _ tags: [UInt64], _ cells: [Int32], _ entries: [Entry], _ arena: [UInt8], key: UInt64,
        id: UnsafeRawBufferPointer
    ) -> Int? {
        tags.withUnsafeBufferPointer { tags in
            cells.withUnsafeBufferPointer { cells in
                entries.withUnsafeBufferPointer { entries in
                    arena.withUnsafeBytes { arena in
                        let mask = tags.count - 1
                        let wanted = tag(key)
                        var cell = Int(truncatingIfNeeded: key >> 1) & mask
                        while tags[cell] != 0 {
                            if tags[cell] == wanted {
                                let index = Int(cells[cell])
                                let entry = entries[index]
                                if entry.key == key && equal(arena, entry.id, Int(entry.idCount), id) {
                                    return index
                                }
                            }
                            cell = (cell + 1) & mask
                        }
                        return nil
                    }
                }
            }
        }
    }

    /// Starts loading the table cells where these keys' lookups begin. The tables are megabytes
    /// and the keys random, so each lookup would wait for memory in turn; prefetched for a whole
    /// batch first, those waits overlap.
    func prefetch(streamKeys: some Sequence<UInt64>, commandKeys: some Sequence<UInt64>) {
        Self.prefetch(streamTags, keys: streamKeys)
        Self.prefetch(commandTags, keys: commandKeys)
    }

    private static func prefetch(_ tags: [UInt64], keys: some Sequence<UInt64>) {
        tags.withUnsafeBufferPointer { tags in
            let mask = tags.count - 1
            for key in keys {
                itemaudit_prefetch(tags.baseAddress! + (Int(truncatingIfNeeded: key >> 1) & mask))
            }
        }
    }

    /// What the command with this key and id appended, or nil when it is not recent.
    func command(key: UInt64, id: UnsafeRawBufferPointer) -> CommandEntry? {
        commandSlot(key: key, id: id).map { commands[$0].entry }
    }

    /// The ordinal of the last frame holding events of the stream at `index` in ``streams``
    /// (nil when none is recorded).
    func lastFrame(ofStreamAt index: Int) -> UInt32? {
        let link = streams[index].lastLink
        return link >= 0 ? frameLinks[Int(link)].frame.frame : nil
    }

    /// The frames of the stream at `index` in ``streams``, in order, with the version of the
    /// first event in each.
    func frames(ofStreamAt index: Int) -> [StreamFrame] {
        var result: [StreamFrame] = []
        var link = streams[index].firstLink
        while link >= 0 {
            result.append(frameLinks[Int(link)].frame)
            link = frameLinks[Int(link)].next
        }
        return result
    }

    // MARK: Updates

    /// Records that the stream is at `lastVersion` after events from `firstVersion` in frame `ordinal`.
    mutating func noteStream(
        key: UInt64, id: UnsafeRawBufferPointer, firstVersion: UInt64, lastVersion: UInt64, frame ordinal: UInt32?
    ) {
        if let index = streamSlot(key: key, id: id) {
            noteStream(at: index, firstVersion: firstVersion, lastVersion: lastVersion, frame: ordinal)
            return
        }
        var entry = StreamSlot(key: key, id: store(id), idCount: Int32(id.count), version: lastVersion)
        if let ordinal {
            entry.firstLink = Int32(frameLinks.count)
            entry.lastLink = entry.firstLink
            frameLinks.append(FrameLink(frame: StreamFrame(frame: ordinal, firstVersion: firstVersion), next: -1))
        }
        streams.append(entry)
        if streams.count * 2 > streamTags.count {
            Self.rebuild(&streamTags, &streamCells, keys: streams.lazy.map(\.key), count: streams.count)
        } else {
            Self.insert(key, index: streams.count - 1, into: &streamTags, &streamCells)
        }
    }

    /// ``noteStream(key:id:firstVersion:lastVersion:frame:)`` for the stream at `index` in ``streams``.
    mutating func noteStream(at index: Int, firstVersion: UInt64, lastVersion: UInt64, frame ordinal: UInt32?) {
        streams[index].version = lastVersion
        guard let ordinal else { return }
        let last = streams[index].lastLink
        if last >= 0 && frameLinks[Int(last)].frame.frame == ordinal { return }
        let link = Int32(frameLinks.count)
        frameLinks.append(FrameLink(frame: StreamFrame(frame: ordinal, firstVersion: firstVersion), next: -1))
        if last >= 0 { frameLinks[Int(last)].next = link } else { streams[index].firstLink = link }
        streams[index].lastLink = link
    }

    /// Records what a command appended: `count` events from `position`, the stream then at
    /// `lastVersion`. A command seen before is extended only when the events follow on.
    mutating func noteCommand(
        key: UInt64, id: UnsafeRawBufferPointer, position: UInt64, count: UInt32, lastVersion: UInt64,
        fingerprint: CommandFingerprint? = nil
    ) {
        if let index = commandSlot(key: key, id: id) {
            let entry = commands[index].entry
            if entry.firstPosition + UInt64(entry.count) == position {
                commands[index].entry.count += count
                commands[index].entry.streamVersion = lastVersion
            }
            return
        }
        insertCommand(
            key: key, id: id, position: position, count: count, lastVersion: lastVersion, fingerprint: fingerprint)
    }

    /// Adds a command known not to be here (the writer checked before writing it).
    mutating func insertCommand(
        key: UInt64, id: UnsafeRawBufferPointer, position: UInt64, count: UInt32, lastVersion: UInt64,
        fingerprint: CommandFingerprint? = nil
    ) {
        commands.append(
            CommandSlot(
                key: key, id: store(id), idCount: Int32(id.count),
                entry: CommandEntry(
                    firstPosition: position, count: count, streamVersion: lastVersion, fingerprint: fingerprint)))
        if commands.count * 2 > commandTags.count {
            Self.rebuild(&commandTags, &commandCells, keys: commands.lazy.map(\.key), count: commands.count)
        } else {
            Self.insert(key, index: commands.count - 1, into: &commandTags, &commandCells)
        }
    }

    // MARK: Storage

    private mutating func store(_ id: UnsafeRawBufferPointer) -> Int {
        let start = ids.count
        ids.append(contentsOf: id)
        return start
    }

    private static func insert(_ key: UInt64, index: Int, into tags: inout [UInt64], _ cells: inout [Int32]) {
        let mask = tags.count - 1
        var cell = Int(truncatingIfNeeded: key >> 1) & mask
        while tags[cell] != 0 { cell = (cell + 1) & mask }
        tags[cell] = tag(key)
        cells[cell] = Int32(index)
    }

    /// Makes tables with room for twice `count` entries and puts every key in.
    private static func rebuild<Keys: Sequence<UInt64>>(
        _ tags: inout [UInt64], _ cells: inout [Int32], keys: Keys, count: Int
    ) {
        let size = cellCount(for: count * 2)
        tags = [UInt64](repeating: 0, count: size)
        cells = [Int32](repeating: -1, count: size)
        for (index, key) in keys.enumerated() { insert(key, index: index, into: &tags, &cells) }
    }

    @inline(__always)
    private static func equal(_ arena: UnsafeRawBufferPointer, _ start: Int, _ count: Int, _ id: UnsafeRawBufferPointer)
        -> Bool
    {
        count == id.count && memcmp(arena.baseAddress! + start, id.baseAddress!, count) == 0
    }
}

/// An entry of the recent tables: its hashed key and where its id's bytes are in the arena.
protocol RecentEntry: Sendable {
    var key: UInt64 { get }
    var id: Int { get }
    var idCount: Int32 { get }
}
