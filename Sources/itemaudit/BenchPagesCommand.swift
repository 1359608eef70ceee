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
            batch. Build with -c release for meaningful figures (targets: 50 ms per page at the demo's \
            size, 200 ms at ten times it).

            Example:
              itemaudit bench pages --data ./itemaudit-data --format json
            """)

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption

    @Option(help: "Draws of each page (the median is printed).")
    var repetitions = 20

    func run() async throws {
        let queries = try ProjectionAccess.queries(data.url)
        BenchmarkReport(results: try await PagesBenchmark.run(queries: queries, repetitions: repetitions)).print(
            output.format)
    }
}
