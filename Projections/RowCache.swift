/// A bounded working set of rows keyed by primary key: loaded on demand, written when dirty.
///
/// Folds change rows here; ``flush(_:)`` writes the dirty ones (inside the runner's
/// transaction) and, when more than `capacity` rows are held, forgets them all — they are in
/// the database and come back on the next ``modify(_:load:_:)``.
final class RowCache<Key: Hashable, Value> {
    private var entries: [Key: Entry] = [:]
    private let capacity: Int

    private struct Entry {
        var value: Value
        var dirty: Bool
    }

    init(capacity: Int) { self.capacity = capacity }

    /// The row for `key` if it is held or can be loaded.
    func value(_ key: Key, load: (Key) throws -> Value?) rethrows -> Value? {
        if let entry = entries[key] { return entry.value }
        guard let loaded = try load(key) else { return nil }
        entries[key] = Entry(value: loaded, dirty: false)
        return loaded
    }

    /// Changes the row for `key` (loading it first); does nothing when there is no such row.
    @discardableResult
    func modify(_ key: Key, load: (Key) throws -> Value?, _ body: (inout Value) throws -> Void) rethrows -> Bool {
        if entries[key] == nil {
            guard let loaded = try load(key) else { return false }
            entries[key] = Entry(value: loaded, dirty: false)
        }
        try body(&entries[key]!.value)
        entries[key]!.dirty = true
        return true
    }

    /// Puts a new (or replaced) row.
    func insert(_ key: Key, _ value: Value) {
        entries[key] = Entry(value: value, dirty: true)
    }

    /// Writes every dirty row, then forgets them all when more than `capacity` are held.
    /// `write` may change the row (to note that it is now stored, say).
    func flush(_ write: (Key, inout Value) throws -> Void) rethrows {
        for key in entries.keys where entries[key]!.dirty {
            try write(key, &entries[key]!.value)
            entries[key]!.dirty = false
        }
        if entries.count > capacity { entries.removeAll(keepingCapacity: true) }
    }

    /// Forgets a row without writing it.
    func remove(_ key: Key) { entries[key] = nil }
}
