import Inspection

extension AuditService.Configuration {
    /// A `--batch-validity-days` value the configuration cannot take.
    public struct BatchValidityError: Error, Sendable {
        /// What is wrong and what to write instead.
        public var message: String
    }

    /// Applies one `[MODE=]DAYS` value: days until an unsubmitted batch expires, for every mode or
    /// for one (0-4 or its name: wholesale, new-product, existing-product, reinspection, ad-hoc).
    public mutating func setBatchValidity(_ value: String) throws(BatchValidityError) {
        let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let days = Int(parts.last ?? ""), (1...365).contains(days) else {
            throw BatchValidityError(
                message: "\(value): the days must be a whole number from 1 to 365 (e.g. 4 or wholesale=2)")
        }
        guard parts.count == 2 else {
            allocation.expiryDays = days
            return
        }
        let name = parts[0].lowercased()
        guard let mode = Int(name).flatMap(InspectionMode.init(rawValue:)) ?? Self.modeNames[name] else {
            throw BatchValidityError(
                message: "\(value): unknown mode '\(parts[0])' (use 0-4 or "
                    + Self.modeNames.keys.sorted().joined(separator: ", ") + ")")
        }
        allocation.expiryDaysByMode[mode] = days
    }

    private static let modeNames: [String: InspectionMode] = [
        "wholesale": .wholesale, "new-product": .newProduct, "existing-product": .existingProduct,
        "reinspection": .reinspection, "ad-hoc": .adHoc,
    ]
}
