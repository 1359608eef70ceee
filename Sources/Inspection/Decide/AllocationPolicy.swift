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
    /// Days until an unsubmitted batch expires (the seed's four).
    public var expiryDays: Int
    /// Modes whose batches keep another validity than ``expiryDays``.
    public var expiryDaysByMode: [InspectionMode: Int] = [:]
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

    /// Days until an unsubmitted batch of `mode` expires.
    public func expiryDays(for mode: InspectionMode) -> Int { expiryDaysByMode[mode] ?? expiryDays }

    /// Minutes one product of `type` takes (15 for a base unit, 4.5 for a case with the defaults),
    /// in tenths of a minute so that sums stay exact.
    public func deciminutes(for type: ProductType) -> Int {
        let perDay = type == .base ? consumerProductsPerDay : wholesaleProductsPerDay
        return max(1, workdayMinutes * 10 / max(1, perDay))
    }
}

extension InspectionState {
    /// The GTINs a batch for `mode` at `locationID` could take, best first; held ones excluded.
    ///
    /// Order: an inspect-before date (earliest first, dated before undated), then reception
    /// priority (urgent first), then never inspected, then longest since inspected, then GTIN.
    public func allocationQueue(locationID: String, mode: InspectionMode) -> [String] {
        Array(allocationCandidates(locationID: locationID, mode: mode))
    }

    /// ``allocationQueue(locationID:mode:)`` read lazily from the kept queue: taking the first few
    /// costs the held products skipped on the way, not the catalogue.
    func allocationCandidates(locationID: String, mode: InspectionMode) -> some Sequence<String> {
        allocationQueues.entries(locationID: locationID, mode: mode).lazy.map(\.gtin).filter { holds[$0] == nil }
    }
}

extension InspectionState.Product {
    /// Whether the product is stocked at `locationID`.
    func isListed(at locationID: String) -> Bool { registration.listings.contains { $0.locationID == locationID } }
}
