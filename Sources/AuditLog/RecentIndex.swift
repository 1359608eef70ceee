import Foundation

/// The streams and command ids appended since the last checkpoint, in flat open-addressing
/// tables keyed by their 64-bit ``KeyHash`` and checked against the id's bytes.
///
/// Everything is plain data (ids live in one byte arena, a stream's frames in one link array),
/// so the writer's lookups and inserts hash nothing again and touch no reference count. Two ids
/// with the same hash simply take two slots: a hit needs the key and the bytes to match.
struct RecentIndex: Sendable {
    /// A stream's slot: its id, current version and its frames (a list in ``frameLinks``).
    struct StreamSlot: Sendable {
        var key: UInt64 = 0
        var id = 0
        /// 0 while the slot is empty (ids are never empty).
        var idCount: Int32 = 0
        var firstLink: Int32 = -1
        var lastLink: Int32 = -1
        var version: UInt64 = 0
    }

    /// A command id's slot and what it appended.
    struct CommandSlot: Sendable {
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

    private(set) var streamSlots: [StreamSlot]
    private(set) var commandSlots: [CommandSlot]
    private(set) var frameLinks: [FrameLink] = []
    private var ids: [UInt8] = []
    private(set) var streamCount = 0
    private(set) var commandCount = 0

    /// Room for about `capacity` streams and commands before the tables grow.
    init(capacity: Int = 64) {
        let slots = Self.slotCount(for: capacity)
        streamSlots = [StreamSlot](repeating: StreamSlot(), count: slots)
        commandSlots = [CommandSlot](repeating: CommandSlot(), count: slots)
    }

    var isEmpty: Bool { streamCount == 0 && commandCount == 0 }

    private static func slotCount(for capacity: Int) -> Int {
        var slots = 16
        while slots < capacity * 2 { slots <<= 1 }
        return slots
    }

    // MARK: Lookups

    /// The slot of the stream with this key and id, or nil.
    func streamSlot(key: UInt64, id: UnsafeRawBufferPointer) -> Int? {
        streamSlots.withUnsafeBufferPointer { slots in
            ids.withUnsafeBytes { arena in
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: key) & mask
                while slots[slot].idCount != 0 {
                    let entry = slots[slot]
                    if entry.key == key && Self.equal(arena, entry.id, Int(entry.idCount), id) { return slot }
                    slot = (slot + 1) & mask
                }
                return nil
            }
        }
    }

    /// The current version of the stream with this key and id, or nil when it is not recent.
    func version(key: UInt64, id: UnsafeRawBufferPointer) -> UInt64? {
        streamSlot(key: key, id: id).map { streamSlots[$0].version }
    }

    /// What the command with this key and id appended, or nil when it is not recent.
    func command(key: UInt64, id: UnsafeRawBufferPointer) -> CommandEntry? {
        commandSlots.withUnsafeBufferPointer { slots in
            ids.withUnsafeBytes { arena in
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: key) & mask
                while slots[slot].idCount != 0 {
                    let entry = slots[slot]
                    if entry.key == key && Self.equal(arena, entry.id, Int(entry.idCount), id) { return entry.entry }
                    slot = (slot + 1) & mask
                }
                return nil
            }
        }
    }

    /// The frames of the stream in `slot`, in order, with the version of the first event in each.
    func frames(ofStreamAt slot: Int) -> [StreamFrame] {
        var result: [StreamFrame] = []
        var link = streamSlots[slot].firstLink
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
        if let slot = streamSlot(key: key, id: id) {
            streamSlots[slot].version = lastVersion
            guard let ordinal else { return }
            let last = streamSlots[slot].lastLink
            if last >= 0 && frameLinks[Int(last)].frame.frame == ordinal { return }
            let link = Int32(frameLinks.count)
            frameLinks.append(FrameLink(frame: StreamFrame(frame: ordinal, firstVersion: firstVersion), next: -1))
            if last >= 0 { frameLinks[Int(last)].next = link } else { streamSlots[slot].firstLink = link }
            streamSlots[slot].lastLink = link
            return
        }
        if (streamCount + 1) * 2 > streamSlots.count { growStreams() }
        var slot = StreamSlot(key: key, id: store(id), idCount: Int32(id.count), version: lastVersion)
        if let ordinal {
            slot.firstLink = Int32(frameLinks.count)
            slot.lastLink = slot.firstLink
            frameLinks.append(FrameLink(frame: StreamFrame(frame: ordinal, firstVersion: firstVersion), next: -1))
        }
        insert(slot)
        streamCount += 1
    }

    /// Records what a command appended: `count` events from `position`, the stream then at
    /// `lastVersion`. A command seen before is extended only when the events follow on.
    mutating func noteCommand(
        key: UInt64, id: UnsafeRawBufferPointer, position: UInt64, count: UInt32, lastVersion: UInt64
    ) {
        let mask = commandSlots.count - 1
        var slot = Int(truncatingIfNeeded: key) & mask
        let found: Int? = commandSlots.withUnsafeBufferPointer { slots in
            ids.withUnsafeBytes { arena in
                while slots[slot].idCount != 0 {
                    let entry = slots[slot]
                    if entry.key == key && Self.equal(arena, entry.id, Int(entry.idCount), id) { return slot }
                    slot = (slot + 1) & mask
                }
                return nil
            }
        }
        if let found {
            let entry = commandSlots[found].entry
            if entry.firstPosition + UInt64(entry.count) == position {
                commandSlots[found].entry.count += count
                commandSlots[found].entry.streamVersion = lastVersion
            }
            return
        }
        if (commandCount + 1) * 2 > commandSlots.count {
            growCommands()
        }
        insert(
            CommandSlot(
                key: key, id: store(id), idCount: Int32(id.count),
                entry: CommandEntry(firstPosition: position, count: count, streamVersion: lastVersion)))
        commandCount += 1
    }

    // MARK: Iteration

    /// Calls `body` with the key and entry of every command.
    func forEachCommand(_ body: (UInt64, CommandEntry) throws -> Void) rethrows {
        for slot in commandSlots where slot.idCount != 0 { try body(slot.key, slot.entry) }
    }

    // MARK: Storage

    private mutating func store(_ id: UnsafeRawBufferPointer) -> Int {
        let start = ids.count
        ids.append(contentsOf: id)
        return start
    }

    private mutating func insert(_ entry: StreamSlot) {
        let mask = streamSlots.count - 1
        var slot = Int(truncatingIfNeeded: entry.key) & mask
        while streamSlots[slot].idCount != 0 { slot = (slot + 1) & mask }
        streamSlots[slot] = entry
    }

    private mutating func insert(_ entry: CommandSlot) {
        let mask = commandSlots.count - 1
        var slot = Int(truncatingIfNeeded: entry.key) & mask
        while commandSlots[slot].idCount != 0 { slot = (slot + 1) & mask }
        commandSlots[slot] = entry
    }

    private mutating func growStreams() {
        let old = streamSlots
        streamSlots = [StreamSlot](repeating: StreamSlot(), count: old.count * 2)
        for entry in old where entry.idCount != 0 { insert(entry) }
    }

    private mutating func growCommands() {
        let old = commandSlots
        commandSlots = [CommandSlot](repeating: CommandSlot(), count: old.count * 2)
        for entry in old where entry.idCount != 0 { insert(entry) }
    }

    @inline(__always)
    private static func equal(_ arena: UnsafeRawBufferPointer, _ start: Int, _ count: Int, _ id: UnsafeRawBufferPointer)
        -> Bool
    {
        count == id.count && memcmp(arena.baseAddress! + start, id.baseAddress!, count) == 0
    }
}
