/// What an attribute path means to the rules, worked out from its bytes alone (see `Machine.load`).
struct ResolvedPath: Equatable {
    /// The slot the exact path names (-1: none, or the path cannot be a slot).
    var exact: Int32
    /// For `path@lang`: the slot of `path` (-1: none, or not such a path).
    var language: Int32
    /// For `term[KEY].member` when `term` is an `each` term: the term's index (-1: not such a path),
    /// the offsets of `[` and of the first `]` after it, and the member's id (-1: not one rules read).
    var term: Int32 = -1
    var open: Int32 = -1
    var close: Int32 = -1
    var member: Int32 = -1
}

/// Remembers what attribute paths resolved to, across datasheets: imported and generated datasheets
/// mostly list the same paths in the same order, so each known path remembers the path that followed
/// it last time, and comparing the next path's bytes with that prediction replaces the table lookups
/// (and their cache misses) with one sequential comparison. A path not predicted is found through a
/// hash table of every path seen, and resolved through the program's tables only the first time.
///
/// A final class owning buffers that only its machine uses (one thread at a time); what it remembers
/// is bounded (`entryLimit` paths, `byteLimit` bytes): past that, everything is forgotten and learned again.
final class PathCache {
    private struct Entry {
        var hash: UInt64 = 0
        var start: Int32 = 0
        /// -1: an empty entry.
        var count: Int32 = -1
        /// The entry of the path that followed this one last time (-1: none yet).
        var next: Int32 = -1
        var resolved = ResolvedPath(exact: -1, language: -1)
    }

    /// Hash-table size (a power of two); at most half of it is used.
    static let capacity = 2048
    static let entryLimit = capacity / 2
    static let byteLimit = 1 << 16

    /// `capacity` hashed entries, then the head: its `next` is the first path of the last sheet.
    private let entries: UnsafeMutablePointer<Entry>
    private let bytes: UnsafeMutablePointer<UInt8>
    private var byteCount = 0
    private var entryCount = 0
    /// The entry of the sheet's previous path (`capacity`, the head, at the start of a sheet).
    private var previous = PathCache.capacity

    init() {
        entries = .allocate(capacity: Self.capacity + 1)
        entries.initialize(repeating: Entry(), count: Self.capacity + 1)
        bytes = .allocate(capacity: Self.byteLimit)
    }

    deinit {
        entries.deallocate()
        bytes.deallocate()
    }

    /// Starts a sheet: the first path is predicted to be the last sheet's first path.
    func begin() {
        previous = Self.capacity
    }

    @inline(__always)
    private func matches(_ index: Int, _ path: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[index]
        guard Int(entry.count) == path.count, let base = path.baseAddress else {
            return entry.count == 0 && path.isEmpty
        }
        return Bytes.equal(UnsafeRawPointer(bytes + Int(entry.start)), UnsafeRawPointer(base), count: path.count)
    }

    /// What the sheet's next path resolves to with `program`'s tables.
    @inline(__always)
    func resolve(_ path: UnsafeBufferPointer<UInt8>, _ program: CompiledProgram) -> ResolvedPath {
        let predicted = Int(entries[previous].next)
        if predicted >= 0, matches(predicted, path) {
            previous = predicted
            return entries[predicted].resolved
        }
        return find(path, program)
    }

    private func find(_ path: UnsafeBufferPointer<UInt8>, _ program: CompiledProgram) -> ResolvedPath {
        let hash = ByteTable.hash(path).hash
        let mask = Self.capacity - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while entries[index].count >= 0 {
            if entries[index].hash == hash, matches(index, path) {
                entries[previous].next = Int32(index)
                previous = index
                return entries[index].resolved
            }
            index = (index + 1) & mask
        }
        let resolved = Self.resolve(path, program)
        guard path.count <= Self.byteLimit / 8 else { return resolved }
        if entryCount >= Self.entryLimit || byteCount + path.count > Self.byteLimit {
            forget()
            return resolved
        }
        if let base = path.baseAddress { (bytes + byteCount).update(from: base, count: path.count) }
        entries[index] = Entry(hash: hash, start: Int32(byteCount), count: Int32(path.count), resolved: resolved)
        byteCount += path.count
        entryCount += 1
        entries[previous].next = Int32(index)
        previous = index
        return resolved
    }

    /// Forgets every path (and every prediction); the next sheet learns them again.
    private func forget() {
        entries.update(repeating: Entry(), count: Self.capacity + 1)
        byteCount = 0
        entryCount = 0
        previous = Self.capacity
    }

    /// Resolves a path through the tables: an exact path is a slot unless it has a `[` and no slot
    /// path does; `path@lang` names the slot of `path` (unless a `[` before the `@` rules it out);
    /// `term[KEY].member` names an item of an `each` term.
    static func resolve(_ path: UnsafeBufferPointer<UInt8>, _ program: CompiledProgram) -> ResolvedPath {
        let open = path.firstIndex(of: UInt8(ascii: "["))
        let bracketsRuleOut = !program.slotPathsHaveBrackets
        var resolved = ResolvedPath(exact: -1, language: -1)
        if !(bracketsRuleOut && open != nil), let slot = program.slotTable.lookup(path) {
            resolved.exact = slot
        } else if let at = path.firstIndex(of: UInt8(ascii: "@")),
            !(bracketsRuleOut && open.map { $0 < at } ?? false),
            let slot = program.slotTable.lookup(UnsafeBufferPointer(rebasing: path[..<at]))
        {
            resolved.language = slot
        }
        guard program.hasEachTerms, let open,
            let close = path[open...].firstIndex(of: UInt8(ascii: "]")),
            let term = program.termTable.lookup(UnsafeBufferPointer(rebasing: path[..<open]))
        else { return resolved }
        var memberStart = close + 1
        if memberStart < path.count, path[memberStart] == UInt8(ascii: ".") { memberStart += 1 }
        resolved.term = term
        resolved.open = Int32(open)
        resolved.close = Int32(close)
        resolved.member = program.memberTable.lookup(UnsafeBufferPointer(rebasing: path[memberStart...])) ?? -1
        return resolved
    }
}
