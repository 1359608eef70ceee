import Foundation

/// An immutable, sorted file of fixed-size index entries keyed by a 64-bit hash, memory-mapped:
/// opening costs a CRC pass and no parsing, lookups are interpolation searches.
///
/// ```
/// "IAIXRUN1" | kind u32 | entry size u32 | count u64 | hash mask u64 | entries… | CRC32C u32
/// ```
/// Each entry starts with its key (u64, little-endian); entries are sorted by key, and entries
/// with the same key keep log order (older first). A run is a cache: when missing or damaged
/// the checkpoint that names it is not used and the index is rebuilt from the log.
final class IndexRun: @unchecked Sendable {
    // @unchecked: the mapping is read-only and never changes after init; it is unmapped only
    // in deinit, when no other reference exists. The filter is set once, under `filterLock`.
    enum Kind: UInt32, Sendable {
        /// key, first position u64: where a command's events start.
        case commands = 1
        /// key, frame ordinal u32, events in that frame u32, first version u64.
        case streams = 2

        var entrySize: Int { self == .commands ? 16 : 24 }
    }

    static let magic = Array("IAIXRUN1".utf8)
    static let headerSize = 32

    let kind: Kind
    let name: String
    let count: Int
    let crc: UInt32
    private let base: UnsafeRawPointer?
    private let mappedLength: Int
    /// Built after the run is written or opened (see ``buildFilter()``); nil until then.
    private var storedFilter: KeyFilter?
    private let filterLock = NSLock()

    private init(kind: Kind, name: String, count: Int, crc: UInt32, base: UnsafeRawPointer?, mappedLength: Int) {
        self.kind = kind
        self.name = name
        self.count = count
        self.crc = crc
        self.base = base
        self.mappedLength = mappedLength
    }

    deinit {
        if let base, mappedLength > 0 { munmap(UnsafeMutableRawPointer(mutating: base), mappedLength) }
    }

    /// Gives back the pages a pass over the whole run made resident (the page cache keeps them):
    /// lookups touch a few pages each, and a large index would otherwise stay in the process's
    /// resident memory after the check on open.
    private func releasePages() {
        if let base, mappedLength > 0 { madvise(UnsafeMutableRawPointer(mutating: base), mappedLength, MADV_DONTNEED) }
    }

    /// The key of entry `index`.
    @inline(__always)
    func key(_ index: Int) -> UInt64 {
        UInt64(
            littleEndian: base!.loadUnaligned(fromByteOffset: Self.headerSize + index * kind.entrySize, as: UInt64.self)
        )
    }

    @inline(__always)
    func u64(_ index: Int, at field: Int) -> UInt64 {
        UInt64(
            littleEndian: base!.loadUnaligned(
                fromByteOffset: Self.headerSize + index * kind.entrySize + field, as: UInt64.self))
    }

    @inline(__always)
    func u32(_ index: Int, at field: Int) -> UInt32 {
        UInt32(
            littleEndian: base!.loadUnaligned(
                fromByteOffset: Self.headerSize + index * kind.entrySize + field, as: UInt32.self))
    }

    /// The entries whose key is `key`, as a range of entry indexes (empty when none).
    func entries(for wanted: UInt64) -> Range<Int> {
        Keys(base: base.map { $0 + Self.headerSize }, count: count, entrySize: kind.entrySize, filter: nil)
            .entries(for: wanted)
    }

    /// The run's keys (and its filter, once built) as plain data, for lookups that must not
    /// touch reference counts; valid while the run is alive.
    var keys: Keys {
        Keys(
            base: base.map { $0 + Self.headerSize }, count: count, entrySize: kind.entrySize,
            filter: filterLock.withLock { storedFilter?.probe })
    }

    /// Builds the run's ``KeyFilter`` unless it has one: one pass over its keys.
    func buildFilter() {
        guard filterLock.withLock({ storedFilter == nil }), count > 0 else { return }
        let filter = KeyFilter(count: count) { key($0) }
        filterLock.withLock { storedFilter = filter }
        releasePages()
    }

    /// The sorted keys of a run, searched in place.
    struct Keys {
        let base: UnsafeRawPointer?
        let count: Int
        let entrySize: Int
        let filter: KeyFilter.Probe?

        @inline(__always)
        func key(_ index: Int) -> UInt64 {
            UInt64(littleEndian: base!.loadUnaligned(fromByteOffset: index * entrySize, as: UInt64.self))
        }

        /// True when some entry has this key.
        func contains(_ wanted: UInt64) -> Bool {
            if let filter, !filter.mayContain(wanted) { return false }
            return !entries(for: wanted).isEmpty
        }

        /// The entries whose key is `key`, as a range of entry indexes (empty when none).
        func entries(for wanted: UInt64) -> Range<Int> {
            guard count > 0 else { return 0..<0 }
            // Interpolation search narrows the window while keys are spread evenly, then binary search.
            var low = 0
            var high = count  // first index whose key is >= key lies in low...high
            var rounds = 0
            while low < high {
                let lowKey = key(low)
                if lowKey >= wanted { break }
                let highKey = key(high - 1)
                if highKey < wanted {
                    low = high
                    break
                }
                var probe: Int
                if rounds < 4 && highKey > lowKey {
                    let fraction = Double(wanted - lowKey) / Double(highKey - lowKey)
                    probe = low + Int(fraction * Double(high - 1 - low))
                    probe = min(max(probe, low), high - 1)
                } else {
                    probe = (low + high) / 2
                }
                rounds += 1
                if key(probe) < wanted { low = probe + 1 } else { high = probe }
            }
            var end = low
            while end < count, key(end) == wanted { end += 1 }
            return low..<end
        }
    }

    // MARK: - Files

    static func fileName(kind: Kind, sequence: UInt64) -> String {
        "index-\(kind == .commands ? "commands" : "streams")-\(String(format: "%010llu", sequence)).run"
    }

    /// Writes `entries` (already sorted, `kind.entrySize` bytes each) to a new run file, synced.
    static func write(
        kind: Kind, entries: UnsafeRawBufferPointer, count: Int, mask: UInt64, name: String, directory: URL
    ) throws -> IndexRun {
        var header = ByteWriter(capacity: headerSize)
        header.bytes.append(contentsOf: magic)
        header.fixed(kind.rawValue)
        header.fixed(UInt32(kind.entrySize))
        header.fixed(UInt64(count))
        header.fixed(mask)
        var crc = CRC32C.checksum(header.bytes)
        crc = CRC32C.checksum(entries, continuing: crc)
        let url = directory.appendingPathComponent(name)
        let file = try LogFile.open(url, writable: true, create: true)
        try file.truncate(to: 0)
        try header.bytes.withUnsafeBytes { try file.write($0, at: 0) }
        try file.write(entries, at: UInt64(headerSize))
        try withUnsafeBytes(of: crc.littleEndian) { try file.write($0, at: UInt64(headerSize + entries.count)) }
        try file.sync()
        guard let run = try open(name: name, directory: directory, kind: kind, count: count, crc: crc, mask: mask)
        else {
            throw EventLogError(
                .io, "the index run \(name) just written does not read back (check the disk)",
                context: ["file": url.path])
        }
        run.buildFilter()
        return run
    }

    /// Maps a run file and checks it is the one a checkpoint names; nil when it is missing,
    /// damaged or different (the caller then rebuilds the index).
    static func open(name: String, directory: URL, kind: Kind, count: Int, crc: UInt32, mask: UInt64) throws
        -> IndexRun?
    {
        let url = directory.appendingPathComponent(name)
        guard let file = try? LogFile.open(url, writable: false) else { return nil }
        let length = headerSize + count * kind.entrySize + 4
        guard try file.size() == UInt64(length) else { return nil }
        guard let mapped = mmap(nil, length, PROT_READ, MAP_SHARED, file.descriptor, 0), mapped != MAP_FAILED else {
            throw LogFile.ioError("cannot map", url: url)
        }
        let run = IndexRun(
            kind: kind, name: name, count: count, crc: crc, base: UnsafeRawPointer(mapped), mappedLength: length)
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(mapped), count: length)
        guard Array(bytes[0..<8]) == magic,
            bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self) == kind.rawValue.littleEndian,
            bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self) == UInt32(kind.entrySize).littleEndian,
            bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self) == UInt64(count).littleEndian,
            bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self) == mask.littleEndian,
            bytes.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self) == crc.littleEndian,
            CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<(length - 4)])) == crc
        else { return nil }
        run.releasePages()
        return run
    }

    /// Merges `runs` (oldest first) into one new run: same-key entries keep log order.
    static func merge(_ runs: [IndexRun], mask: UInt64, name: String, directory: URL) throws -> IndexRun {
        let kind = runs[0].kind
        let size = kind.entrySize
        let total = runs.reduce(0) { $0 + $1.count }
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, total * size), alignment: 8)
        defer { output.deallocate() }
        var cursors = [Int](repeating: 0, count: runs.count)
        for slot in 0..<total {
            // Smallest key; on ties the oldest run, so log order is kept.
            var best = -1
            var bestKey = UInt64.max
            for (run, cursor) in zip(runs.indices, cursors) where cursor < runs[run].count {
                let key = runs[run].key(cursor)
                if best < 0 || key < bestKey {
                    best = run
                    bestKey = key
                }
            }
            let source = runs[best].base! + headerSize + cursors[best] * size
            (output.baseAddress! + slot * size).copyMemory(from: source, byteCount: size)
            cursors[best] += 1
        }
        return try write(
            kind: kind, entries: UnsafeRawBufferPointer(rebasing: output[0..<(total * size)]), count: total,
            mask: mask, name: name, directory: directory)
    }
}
