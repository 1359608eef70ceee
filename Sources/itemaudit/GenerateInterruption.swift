import AuditService
import Foundation

/// What `generate` says when it is interrupted (SIGINT), and the marker that lets a re-run
/// replace what it left.
///
/// On Ctrl-C it prints one line naming how far it got and how to start again, then exits 130.
/// The log is crash-safe: what was appended stays readable, nothing acknowledged is lost.
final class GenerateInterruption: @unchecked Sendable {
    // @unchecked: `days` and `total` are guarded by `lock`; the signal source runs on its own queue.
    private let lock = NSLock()
    private var days = 0
    private var total = 0
    private var source: (any DispatchSourceSignal)?

    /// The file whose presence marks a data directory as one `generate` started.
    static let markerName = ".itemaudit-generated"

    /// Starts listening for SIGINT while `generate` writes into `directory`.
    init(directory: URL) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let path = directory.path
        let handler: @Sendable () -> Void = { [weak self] in self?.interrupted(path) }
        source.setEventHandler(handler: handler)
        source.resume()
        self.source = source
    }

    /// Says how far generate got in `path`, and exits 130 (as a shell does on Ctrl-C).
    private func interrupted(_ path: String) {
        lock.lock()
        let done = days
        let all = total
        lock.unlock()
        let message =
            "\ngenerate: interrupted after \(done) of \(all) days; \(path) holds the partial log "
            + "written so far (run the same generate with --resume to continue it, or --replace to start again)\n"
        FileHandle.standardError.write(Data(message.utf8))
        exit(130)
    }

    /// Notes the simulated days done so far.
    func progress(_ done: Int, of total: Int) {
        lock.lock()
        days = done
        self.total = total
        lock.unlock()
    }

    /// Stops listening (the default action of SIGINT again).
    func finish() {
        source?.cancel()
        signal(SIGINT, SIG_DFL)
    }

    /// Marks `directory` as one generate writes (so `--resume` may continue and `--replace` empty
    /// it later), noting the options that write it: a resumed run must use the same.
    static func mark(_ directory: URL, options: (history: String, days: Int)) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let text = """
            made by itemaudit generate; generate --resume may continue it, generate --replace replace it
            \(optionsPrefix)\(options.history) --days \(options.days)

            """
        try Data(text.utf8).write(to: directory.appendingPathComponent(markerName))
    }

    private static let optionsPrefix = "options: "

    /// Refuses `--resume` unless generate made `directory` with the same options (`--days` may
    /// differ: the first days of a longer run are the same history).
    static func checkResumable(_ directory: URL, options: (history: String, days: Int)) throws {
        let marker = directory.appendingPathComponent(markerName)
        guard let data = FileManager.default.contents(atPath: marker.path) else {
            throw CLIFailure.badInput(
                "\(directory.path) was not made by generate: --resume only continues a directory generate made (nothing was changed)"
            )
        }
        let noted = String(decoding: data, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix(optionsPrefix) }.map { String($0.dropFirst(optionsPrefix.count)) }
        guard let noted else {
            throw CLIFailure.badInput(
                "\(directory.path) was made by a generate that did not note its options, so it cannot be resumed (run generate with --replace to start again)"
            )
        }
        guard noted.hasPrefix(options.history + " --days ") else {
            throw CLIFailure.badInput(
                "\(directory.path) was generated with \(noted): resume it with the same options (itemaudit generate --data \(directory.path) \(noted) --resume)"
            )
        }
    }

    /// Removes what an earlier generate wrote in `directory`, for `--replace`: only when the
    /// marker says generate wrote there.
    static func replace(_ directory: URL) throws {
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(markerName).path) else {
            throw CLIFailure.badInput(
                "\(directory.path) was not made by generate: --replace only replaces a directory generate made (nothing was changed)"
            )
        }
        // Only what generate writes: the log, the photos, the projections and the marker; any other
        // file in the directory stays.
        let layout = DataDirectory(directory)
        do {
            for url in [layout.log, layout.blobs] where FileManager.default.fileExists(atPath: url.path) {
                try FileManager.default.removeItem(at: url)
            }
            for suffix in ["", "-wal", "-shm"]
            where FileManager.default.fileExists(atPath: layout.projections.path + suffix) {
                try FileManager.default.removeItem(atPath: layout.projections.path + suffix)
            }
        } catch {
            throw CLIFailure.badInput("cannot replace \(directory.path): \(error) (check its permissions)")
        }
    }
}
