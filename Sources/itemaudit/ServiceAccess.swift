import AuditService
import Foundation
import Logging

/// Opening a data directory for writing, and checking input files, with the CLI's one-line errors.
enum ServiceAccess {
    /// The audit service on `data`, or a `CLIFailure` (exit 2) saying why not; nothing is written on failure.
    static func open(_ data: URL, logger: Logger) async throws -> AuditService {
        try await opening(data) { try await AuditService.open(dataDirectory: data, logger: logger) }
    }

    /// The audit service on `data`'s directory and log store (--store), or a `CLIFailure` (exit 2).
    static func open(
        _ data: DataDirectoryOption, configuration: AuditService.Configuration = AuditService.Configuration(),
        logger: Logger
    ) async throws -> AuditService {
        let location = data.location
        return try await opening(data.url, location: location) {
            try await AuditService.open(
                dataDirectory: data.url, location: location, configuration: configuration, logger: logger)
        }
    }

    /// The audit service `open` opens on `data` (with a clock of its own, say), or a `CLIFailure`
    /// (exit 2) saying why not; nothing is written on failure.
    static func opening(
        _ data: URL, location: LogStoreLocation = .dataDirectory, _ open: () async throws -> AuditService
    ) async throws -> AuditService {
        do {
            let service = try await open()
            if let note = service.recoveryNote { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
            return service
        } catch let error as AuditServiceError where error.code == .logDamaged {
            throw CLIFailure.badInput(error.message)
        } catch let error as AuditServiceError where error.code == .logBusy {
            throw CLIFailure.badInput(
                "another process is writing the log in \(data.path) (wait for it to finish or stop it; nothing was written)"
            )
        } catch let error as AuditServiceError where location.isPostgres {
            throw CLIFailure.badInput("cannot open the log at \(location): \(error.message)")
        } catch let error as AuditServiceError {
            throw CLIFailure.badInput("cannot open \(data.path): \(error.message) (check --data or $ITEMAUDIT_DATA)")
        }
    }

    /// Fails with exit 2 unless `path` is a readable regular file holding text (not binary data).
    static func requireTextFile(_ path: String, kind: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIFailure.badInput("cannot read \(path): no such file (check the path)")
        }
        guard !isDirectory.boolValue else {
            throw CLIFailure.badInput("cannot read \(path): it is a directory (give \(kind))")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIFailure.badInput("cannot read \(path): permission denied (check its permissions)")
        }
        defer { try? handle.close() }
        let head: Data
        do { head = try handle.read(upToCount: 4096) ?? Data() } catch {
            throw CLIFailure.badInput("cannot read \(path): \(error.localizedDescription) (check the path)")
        }
        // A NUL byte or many control bytes mean binary data. Text in another encoding (Latin-1) is
        // text: the importers name each line and byte that is not UTF-8 and read the rest.
        let controls = head.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C }.count
        let isText =
            !head.contains(0) && controls * 20 <= head.count
        if !isText {
            throw CLIFailure.badInput("\(path) is not a text file (give \(kind))")
        }
    }
}
