/// The work queue of every (location, mode), kept in allocation order as products change.
///
/// Allocating a batch reads the first entries of one queue (skipping held products) instead of
/// filtering and sorting the whole catalogue, which copies every product on every allocation and
/// grows with the catalogue. `InspectionState.apply` moves a product between queues whenever an
/// event changes what decides its place (registration, datasheet, reception, a finished inspection).
///
/// Each queue is a sorted array of sorted chunks: inserting or removing touches one chunk, and a
/// copy of the state (a decision's working copy) shares every chunk it does not change.
struct AllocationQueues: Sendable, Hashable {
    struct QueueID: Sendable, Hashable {
        var locationID: String
        var mode: InspectionMode
    }

    private var queues: [QueueID: SortedChunks] = [:]

    /// The entries of one queue, best first (held products included: the caller skips them).
    func entries(locationID: String, mode: InspectionMode) -> SortedChunks {
        queues[QueueID(locationID: locationID, mode: mode)] ?? SortedChunks()
    }

    mutating func insert(_ entry: QueueEntry, into queue: QueueID) {
        queues[queue, default: SortedChunks()].insert(entry)
    }

    mutating func remove(_ entry: QueueEntry, from queue: QueueID) {
        queues[queue]?.remove(entry)
        if queues[queue]?.isEmpty == true { queues[queue] = nil }
    }
}

/// A queue's sort key (a small value, so comparisons are cheap).
///
/// Order: an inspect-before date (earliest first, dated before undated), then reception priority
/// (urgent first), then never inspected, then longest since inspected, then GTIN.
struct QueueEntry: Sendable, Hashable, Comparable {
    var inspectBefore: Int64
    var priority: Int
    var lastInspected: Int64
    var gtin: String

    static func < (a: QueueEntry, b: QueueEntry) -> Bool {
        if a.inspectBefore != b.inspectBefore { return a.inspectBefore < b.inspectBefore }
        if a.priority != b.priority { return a.priority > b.priority }
        if a.lastInspected != b.lastInspected { return a.lastInspected < b.lastInspected }
        return a.gtin < b.gtin
    }
}

/// A sorted multiset-free collection of ``QueueEntry`` kept as sorted chunks of bounded size.
struct SortedChunks: Sendable, Hashable, Sequence {
    static let maxChunk = 256
    private(set) var chunks: [[QueueEntry]] = []

    var isEmpty: Bool { chunks.isEmpty }

    /// The index of the chunk where `entry` belongs: the last whose first entry is not after it.
    private func chunkIndex(for entry: QueueEntry) -> Int {
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if chunks[middle][0] <= entry { low = middle + 1 } else { high = middle }
        }
        return Swift.max(0, low - 1)
    }

    private static func position(of entry: QueueEntry, in chunk: [QueueEntry]) -> Int {
        var low = 0
        var high = chunk.count
        while low < high {
            let middle = (low + high) / 2
            if chunk[middle] < entry { low = middle + 1 } else { high = middle }
        }
        return low
    }

    mutating func insert(_ entry: QueueEntry) {
        guard !chunks.isEmpty else {
            chunks = [[entry]]
            return
        }
        let index = chunkIndex(for: entry)
        let position = Self.position(of: entry, in: chunks[index])
        if position < chunks[index].count, chunks[index][position] == entry { return }
        chunks[index].insert(entry, at: position)
        if chunks[index].count > Self.maxChunk {
            let upper = Array(chunks[index][(Self.maxChunk / 2)...])
            chunks[index].removeSubrange((Self.maxChunk / 2)...)
            chunks.insert(upper, at: index + 1)
        }
    }

    mutating func remove(_ entry: QueueEntry) {
        guard !chunks.isEmpty else { return }
        let index = chunkIndex(for: entry)
        let position = Self.position(of: entry, in: chunks[index])
        guard position < chunks[index].count, chunks[index][position] == entry else { return }
        chunks[index].remove(at: position)
        if chunks[index].isEmpty { chunks.remove(at: index) }
    }

    func makeIterator() -> FlattenSequence<[[QueueEntry]]>.Iterator { chunks.joined().makeIterator() }

    // Equal content is equal, whatever the chunk boundaries.
    static func == (a: SortedChunks, b: SortedChunks) -> Bool { a.elementsEqual(b) }
    func hash(into hasher: inout Hasher) {
        for entry in self { hasher.combine(entry) }
    }
}

extension InspectionState {
    /// The queues `gtin` belongs to now, with its key: for every location the product is stocked
    /// or received at, each mode whose work it fits (it needs a datasheet).
    func queueMemberships(of gtin: String) -> [(AllocationQueues.QueueID, QueueEntry)] {
        guard let product = products[gtin], product.datasheetID != nil else { return [] }
        let entry = QueueEntry(
            inspectBefore: product.pendingReception?.inspectBefore?.microsecondsSinceEpoch ?? .max,
            priority: product.pendingReception?.priority.rawValue ?? -1,
            lastInspected: product.lastInspectedAt?.microsecondsSinceEpoch ?? .min, gtin: gtin)
        let type = product.registration.productType
        var memberships: [(AllocationQueues.QueueID, QueueEntry)] = []
        for (locationID, gtins) in productsByLocation where gtins.contains(gtin) {
            let listed = product.isListed(at: locationID)
            for mode in [InspectionMode.wholesale, .newProduct, .existingProduct, .reinspection] {
                let fits =
                    switch mode {
                    // Seed 4.2.4: wholesale inspection is case-level; pallets are not inspected.
                    case .wholesale: type == .case && listed
                    case .newProduct: product.pendingReception?.locationID == locationID
                    case .existingProduct: type != .pallet && listed
                    case .reinspection: product.lastResult == .failed
                    case .adHoc: false
                    }
                if fits { memberships.append((AllocationQueues.QueueID(locationID: locationID, mode: mode), entry)) }
            }
        }
        return memberships
    }

    /// Applies `change` to the product `gtin` and moves it between the queues if its place changed.
    mutating func changingQueues(of gtin: String, _ change: (inout InspectionState) -> Void) {
        let before = queueMemberships(of: gtin)
        change(&self)
        let after = queueMemberships(of: gtin)
        guard !before.elementsEqual(after, by: { $0.0 == $1.0 && $0.1 == $1.1 }) else { return }
        for (queue, entry) in before { allocationQueues.remove(entry, from: queue) }
        for (queue, entry) in after { allocationQueues.insert(entry, into: queue) }
    }
}
