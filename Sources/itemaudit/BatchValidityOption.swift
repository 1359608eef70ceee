import ArgumentParser
import AuditService
import Inspection

/// `--batch-validity-days [MODE=]N` on the commands that allocate batches (`serve`, `record`):
/// how many days an unsubmitted batch stays valid, for every mode or for one.
struct BatchValidityOption: ParsableArguments {
    @Option(
        name: .customLong("batch-validity-days"),
        help: ArgumentHelp(
            "Days until an unsubmitted batch expires (default 4, the seed's); MODE=N for one mode "
                + "(0-4 or wholesale, new-product, existing-product, reinspection, ad-hoc). Repeatable.",
            valueName: "[mode=]days"))
    var values: [String] = []

    /// The service configuration with these validities.
    func configuration() throws -> AuditService.Configuration {
        var configuration = AuditService.Configuration()
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            let days = try Self.days(parts.last ?? "", in: value)
            if parts.count == 2 {
                configuration.allocation.expiryDaysByMode[try Self.mode(parts[0], in: value)] = days
            } else {
                configuration.allocation.expiryDays = days
            }
        }
        return configuration
    }

    private static func days(_ text: String, in value: String) throws -> Int {
        guard let days = Int(text), (1...365).contains(days) else {
            throw ValidationError(
                "--batch-validity-days \(value): the days must be a whole number from 1 to 365 (e.g. 4 or wholesale=2)")
        }
        return days
    }

    private static let modeNames: [String: InspectionMode] = [
        "wholesale": .wholesale, "new-product": .newProduct, "existing-product": .existingProduct,
        "reinspection": .reinspection, "ad-hoc": .adHoc,
    ]

    private static func mode(_ text: String, in value: String) throws -> InspectionMode {
        if let number = Int(text), let mode = InspectionMode(rawValue: number) { return mode }
        if let mode = modeNames[text.lowercased()] { return mode }
        throw ValidationError(
            "--batch-validity-days \(value): unknown mode '\(text)' (use 0-4 or "
                + modeNames.keys.sorted().joined(separator: ", ") + ")")
    }
}
