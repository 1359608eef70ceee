import ArgumentParser
import AuditService

/// The `itemaudit` command line: a thin edge over the library modules.
@main
struct ItemAuditCommand: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "itemaudit",
        abstract: "Audit trade-item (GS1) product data: a tamper-evident inspection log and its reports.",
        discussion: """
            Every inspection action is appended to one LZ4-compressed, hash-chained log; reports are \
            rebuilt from it.

            Example:
              itemaudit --version
            """,
        version: "\(version) (liblz4 \(AuditService.lz4Version))",
        subcommands: [
            DemoCommand.self,
            GenerateCommand.self,
            RecordCommand.self,
            VerifyCommand.self,
            RecoverCommand.self,
            StoreCommand.self,
            CheckCommand.self,
            RulesCommand.self,
            GS1Command.self,
            ReplayCommand.self,
            CoverageCommand.self,
            InspectorsCommand.self,
            ProductCommand.self,
            BatchCommand.self,
            BatchesCommand.self,
            OverdueCommand.self,
            SearchCommand.self,
            HistoryCommand.self,
            ReportCommand.self,
            UsersCommand.self,
            AppsCommand.self,
            ServeCommand.self,
            SignCommand.self,
            BenchCommand.self,
            LogFillCommand.self,
            LogOpenCommand.self,
            SampleHistoryCommand.self,
            DatasheetsCommand.self,
            ProofCommand.self,
        ]
    )
}
