/// A bounded working set of rows keyed by primary key: loaded on demand, written when dirty.
///
/// Folds change rows here; ``flush(_:)`` writes the dirty ones (inside the runner's
/// transaction) and, when more than `capacity` rows are held, forgets the ones not used since
/// the previous flush (or all, when more than `capacity` were used) — they are in the database
/// and come back on the next ``modify(_:load:_:)``.
final class RowCache<Key: Hashable, Value> {
    private var entries: [Key: Entry] = [:]
    private let capacity: Int
    /// Consecutive events mostly touch the same row: its index is kept until the table changes shape.
    private var lastKey: Key?
    private var lastIndex: Dictionary<Key, Entry>.Index?

    private struct Entry {
        var value: Value
        var dirty: Bool
        /// The flush period it was last read or changed in: the rows of the current one are kept
        /// when the others are forgotten. Events come in time order, so a row used lately (an
        /// open batch, today's counts) is likely used again, and each one forgotten would be read
        /// back, a read that waits for every write queued before it.
        var usedIn: UInt64
    }

    /// Flushes so far: the current flush period.
    private var period: UInt64 = 0

    /// Every row created after this position is in memory (none was evicted since): a miss
    /// for such a row means it does not exist, and needs no read.
    private(set) var completeAfter: UInt64

    /// Every row of the table is in memory (it was empty at the run's start and nothing was
    /// evicted since): a miss means there is no such row, so loads can return nil without a read.
    var isComplete: Bool { completeAfter == 0 }

    init(capacity: Int, completeAfter: UInt64 = .max) {
        self.capacity = capacity
        self.completeAfter = completeAfter
    }

    /// The row for `key` if it is held or can be loaded.
    func value(_ key: Key, load: (Key) throws -> Value?) rethrows -> Value? {
        if let index = try index(of: key, load: load) { return entries.values[index].value }
        return nil
    }

    private func index(of key: Key, load: (Key) throws -> Value?) rethrows -> Dictionary<Key, Entry>.Index? {
        if let lastIndex, lastKey == key {
            entries.values[lastIndex].usedIn = period
            return lastIndex
        }
        var index = entries.index(forKey: key)
        if let found = index {
            entries.values[found].usedIn = period
        } else {
            guard let loaded = try load(key) else { return nil }
            entries[key] = Entry(value: loaded, dirty: false, usedIn: period)
            index = entries.index(forKey: key)
        }
        lastKey = key
        lastIndex = index
        return index
    }

    /// Changes the row for `key` (loading it first); does nothing when there is no such row.
    @discardableResult
    func modify(_ key: Key, load: (Key) throws -> Value?, _ body: (inout Value) throws -> Void) rethrows -> Bool {
        guard let index = try index(of: key, load: load) else { return false }
        entries.values[index].dirty = true
        try body(&entries.values[index].value)
        return true
    }

    /// Puts a new (or replaced) row.
    func insert(_ key: Key, _ value: Value) {
        lastIndex = nil
        entries[key] = Entry(value: value, dirty: true, usedIn: period)
    }

    /// Writes every dirty row; then, when more than `capacity` are held, forgets the ones not
    /// used since the previous flush (all of them when more than `capacity` were used).
    /// `write` may change the row (to note that it is now stored, say).
    func flush(at position: UInt64 = .max, _ write: (Key, inout Value) throws -> Void) rethrows {
        var used = 0
        var index = entries.startIndex
        while index != entries.endIndex {
            if entries.values[index].dirty {
                try write(entries.keys[index], &entries.values[index].value)
                entries.values[index].dirty = false
            }
            if entries.values[index].usedIn == period { used += 1 }
            index = entries.index(after: index)
        }
        if entries.count > capacity {
            lastIndex = nil
            if used > capacity {
                entries.removeAll(keepingCapacity: true)
            } else {
                let current = period
                entries = entries.filter { $0.value.usedIn == current }
            }
            completeAfter = max(completeAfter, position)
        }
        period += 1
    }
}
