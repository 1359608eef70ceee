import ArgumentParser
import AuditService

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
            do {
                try configuration.setBatchValidity(value)
            } catch {
                throw ValidationError("--batch-validity-days \(error.message)")
            }
        }
        return configuration
    }
}
