import ArgumentParser
import SampleData

/// The size and seed of a generated history, shared by `generate` and `demo`.
struct HistorySizeOptions: ParsableArguments {
    @Option(help: "The seed: the same seed gives the same history, byte for byte.") var seed: UInt64 = 1
    @Option(help: "Number of inspectors.") var inspectors = 12
    @Option(help: "Number of locations (one inspection centre, warehouses, stores).") var locations = 8
    @Option(help: "Catalogue size.") var products = 5000
    @Option(help: "Calendar days to simulate (work happens on weekdays).") var days = 90

    func validate() throws {
        guard (1...500).contains(inspectors) else { throw ValidationError("--inspectors must be 1 to 500") }
        guard (3...200).contains(locations) else { throw ValidationError("--locations must be 3 to 200") }
        guard (10...1_000_000).contains(products) else { throw ValidationError("--products must be 10 to 1000000") }
        guard (1...3650).contains(days) else { throw ValidationError("--days must be 1 to 3650") }
    }

    /// The options as arguments, in a fixed order: what `generate` notes in the directory it makes.
    /// `days` is apart: a resumed run may simulate more days than the interrupted one.
    var arguments: (history: String, days: Int) {
        ("--seed \(seed) --inspectors \(inspectors) --locations \(locations) --products \(products)", days)
    }

    /// The generator's configuration for these options.
    var configuration: WorkloadGenerator.Configuration {
        WorkloadGenerator.Configuration(
            seed: seed, inspectors: inspectors, locations: locations, products: products, days: days)
    }
}
