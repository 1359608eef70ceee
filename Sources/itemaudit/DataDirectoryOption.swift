import ArgumentParser
import Foundation

/// The `--data DIR` option every command that reads or writes the store shares.
struct DataDirectoryOption: ParsableArguments {
    @Option(
        name: .customLong("data"),
        help: ArgumentHelp(
            "The data directory (default: $ITEMAUDIT_DATA, else ./itemaudit-data).",
            valueName: "dir"
        )
    )
    var explicitPath: String?

    /// The data directory used when neither --data nor $ITEMAUDIT_DATA names one, as an absolute path.
    static var defaultPath: String {
        URL(fileURLWithPath: "itemaudit-data", isDirectory: true).standardizedFileURL.path
    }

    /// The data directory this run uses.
    var url: URL {
        let path =
            explicitPath
            ?? ProcessInfo.processInfo.environment["ITEMAUDIT_DATA"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "itemaudit-data"
        return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }
}
