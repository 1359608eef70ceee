/// How the server sizes batches and orders the work queue.
///
/// Time per product comes from the seed (chapter 5): an inspector gets through about 30
/// consumer (base unit) or 100 wholesale (case, pallet) products in a working day.
public struct AllocationPolicy: Sendable, Hashable {
    /// Consumer products an inspector inspects per working day.
    public var consumerProductsPerDay: Int
    /// Wholesale products an inspector inspects per working day.
    public var wholesaleProductsPerDay: Int
    /// Minutes in a working day.
    public var workdayMinutes: Int
    /// Days until an unsubmitted batch expires.
    public var expiryDays: Int
    /// The largest batch one request may produce.
    public var maxBatchSize: Int

    public init(
        consumerProductsPerDay: Int = 30, wholesaleProductsPerDay: Int = 100, workdayMinutes: Int = 450,
        expiryDays: Int = 4, maxBatchSize: Int = 500
    ) {
        self.consumerProductsPerDay = consumerProductsPerDay
        self.wholesaleProductsPerDay = wholesaleProductsPerDay
        self.workdayMinutes = workdayMinutes
        self.expiryDays = expiryDays
        self.maxBatchSize = maxBatchSize
    }

    /// Minutes one product of `type` takes (15 for a base unit, 4.5 for a case with the defaults),
    /// in tenths of a minute so that sums stay exact.
    public func deciminutes(for type: ProductType) -> Int {
        let perDay = type == .base ? consumerProductsPerDay : wholesaleProductsPerDay
        return max(1, workdayMinutes * 10 / max(1, perDay))
    }
}

extension InspectionState {
    /// The products a batch for `mode` at `locationID` could take, best first; held ones excluded.
    ///
    /// Order: an inspect-before date (earliest first, dated before undated), then reception
    /// priority (urgent first), then never inspected, then longest since inspected, then GTIN.
    public func allocationQueue(locationID: String, mode: InspectionMode) -> [Product] {
        guard let gtins = productsByLocation[locationID] else { return [] }
        var candidates: [Product] = []
        candidates.reserveCapacity(gtins.count)
        for gtin in gtins where holds[gtin] == nil {
            guard let product = products[gtin], product.datasheetID != nil else { continue }
            let type = product.registration.productType
            let listedHere = product.registration.listings.contains { $0.locationID == locationID }
            switch mode {
            case .wholesale:
                guard type != .base, listedHere else { continue }
            case .newProduct:
                guard product.pendingReception?.locationID == locationID else { continue }
            case .existingProduct:
                guard type != .pallet, listedHere else { continue }
            case .reinspection:
                guard product.lastResult == .failed else { continue }
            case .adHoc:
                continue
            }
            candidates.append(product)
        }
        candidates.sort(by: Self.allocationOrder)
        return candidates
    }

    static func allocationOrder(_ a: Product, _ b: Product) -> Bool {
        let dateA = a.pendingReception?.inspectBefore
        let dateB = b.pendingReception?.inspectBefore
        if dateA != dateB {
            guard let dateA else { return false }
            guard let dateB else { return true }
            return dateA < dateB
        }
        let priorityA = a.pendingReception?.priority.rawValue ?? -1
        let priorityB = b.pendingReception?.priority.rawValue ?? -1
        if priorityA != priorityB { return priorityA > priorityB }
        if a.lastInspectedAt != b.lastInspectedAt {
            guard let lastA = a.lastInspectedAt else { return true }
            guard let lastB = b.lastInspectedAt else { return false }
            return lastA < lastB
        }
        return a.gtin < b.gtin
    }
}
