import ArgumentParser
import AuditService
import Benchmarks

/// `itemaudit bench pages`: milliseconds to draw each web page against its queries alone.
struct BenchPagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pages",
        abstract: "Draw every web page of a data directory (median ms) against the same queries without drawing.",
        discussion: """
            The baseline, measured in the same run, is the AuditQueries calls a page makes, without \
            turning their answers into HTML; the ratio is what drawing costs on top. The product and \
            history pages use the busiest product of the first search page; the batch page the first \
            batch. The queries hold the projection database open between pages, as the server does. \
            page-dashboard-per-second is dashboards drawn per second by --clients concurrent drawers \
            (baseline: the dashboard's queries alone). Build with -c release for meaningful figures (targets: 50 ms per page at the demo's \
            size, 200 ms at ten times it).

            Example:
              itemaudit bench pages --data ./itemaudit-data --format json
            """)

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption

    @Option(help: "Draws of each page (the median and the longest are printed).")
    var repetitions = 20

    @Option(help: "Concurrent drawers for the dashboards-per-second figure.")
    var clients = 2

    @Option(help: "Seconds the dashboards-per-second figure runs.")
    var seconds = 3

    func validate() throws {
        guard repetitions > 0 else { throw ValidationError("--repetitions must be positive") }
        guard (1...256).contains(clients) else { throw ValidationError("--clients must be 1 to 256") }
        guard (1...600).contains(seconds) else { throw ValidationError("--seconds must be 1 to 600") }
    }

    func run() async throws {
        let queries = try ProjectionAccess.queries(data.url)
        BenchmarkReport(
            results: try await PagesBenchmark.run(
                queries: queries, repetitions: repetitions, clients: clients, seconds: seconds)
        ).print(
            output.format)
    }
}
