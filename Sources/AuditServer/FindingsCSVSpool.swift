import AuditService
import Foundation
import Hummingbird
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Every finding of an upload as CSV, written on a check worker into a temporary file that has no
/// name (it is unlinked as soon as it is made), then read out to the client chunk by chunk.
///
/// The worker is done when the check is: a client that reads the answer slowly, or never, holds
/// this file and a place from ``CheckWorkers/admitSpool()``, not a worker (the server's idle
/// timeout does not close a connection while its answer is being written). Memory stays one chunk
/// however many findings there are, and the file goes when the answer ends or is dropped.
final class FindingsCSVSpool: Sendable {
    /// Bytes written or read at a time.
    static let chunkBytes = 64 << 10

    private let descriptor: CInt
    /// The CSV's length in bytes.
    let byteCount: Int

    private init(descriptor: CInt, byteCount: Int) {
        self.descriptor = descriptor
        self.byteCount = byteCount
    }

    deinit { close(descriptor) }

    /// What checking an upload into a spool gave: the spool, or the records that could not be read.
    enum Outcome {
        case written(FindingsCSVSpool)
        case unreadable([ImportIssue])
    }

    /// Checks `body` and writes its findings as CSV, the header first. Runs on a check worker.
    /// - Throws: ``ImportIssue`` when the body holds no datasheets, ``Problem`` 503 when the
    ///   temporary file cannot be made or written (a full disk).
    static func write(
        _ body: [UInt8], format: DatasheetFormat, engine: RuleEngine
    ) throws -> Outcome {
        let descriptor = try makeUnlinkedFile()
        var written = 0
        var text = DatasheetFinding.csvHeader
        do {
            func flush() throws {
                try text.withUTF8 { try writeAll($0, to: descriptor) }
                written += text.utf8.count
                text = ""
            }
            var failure: (any Error)?
            let scanned = try DatasheetUpload.scan(body, format: format, engine: engine) { datasheet, report in
                for finding in DatasheetFinding.all(of: report, on: datasheet) { text += finding.csvRow }
                guard text.utf8.count >= chunkBytes else { return true }
                do { try flush() } catch {
                    failure = error
                    return false
                }
                return true
            }
            if let failure { throw failure }
            guard scanned.unreadable.isEmpty else {
                close(descriptor)
                return .unreadable(scanned.unreadable)
            }
            try flush()
        } catch {
            close(descriptor)
            throw error
        }
        return .written(FindingsCSVSpool(descriptor: descriptor, byteCount: written))
    }

    /// The CSV as a 200 download named `fileName`, read from the spool a chunk at a time off the
    /// event loop; `ticket` (from ``CheckWorkers/admitSpool()``) is given back when the answer is
    /// written, or dropped unwritten.
    func response(holding ticket: CheckWorkers.Admissions.Ticket, fileName: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"\(fileName)\""
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(contentLength: byteCount) { writer in
                defer { ticket.release() }
                var offset = 0
                while offset < self.byteCount {
                    let from = offset
                    // A page-cache read, still kept off the event loop.
                    let chunk = try await NIOThreadPool.singleton.runIfActive { try self.chunk(at: from) }
                    offset += chunk.readableBytes
                    try await writer.write(chunk)
                }
                try await writer.finish(nil)
            })
    }

    /// Up to ``chunkBytes`` of the CSV from `offset` (empty at the end). Blocking file I/O: call it
    /// on a thread pool, not an event loop.
    func chunk(at offset: Int) throws -> ByteBuffer {
        let length = min(Self.chunkBytes, byteCount - offset)
        guard length > 0 else { return ByteBuffer() }
        var buffer = ByteBuffer()
        let read = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: length) { space in
            let count = pread(descriptor, space.baseAddress, length, off_t(offset))
            guard count >= 0 else { throw Self.fileProblem("read", errno) }
            return count
        }
        guard read > 0 else { throw Self.fileProblem("read (the file ended early)", EIO) }
        return buffer
    }

    /// A new file in the temporary directory, readable and writable by this process only, with
    /// its name already removed.
    private static func makeUnlinkedFile() throws -> CInt {
        var template = Array(
            FileManager.default.temporaryDirectory.appendingPathComponent("itemaudit-findings-XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw fileProblem("create (set TMPDIR to a writable directory)", errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }

    private static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: CInt) throws {
        var done = 0
        while done < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw fileProblem("write", errno) }
            done += count
        }
    }

    private static func fileProblem(_ action: String, _ code: CInt) -> Problem {
        var problem = Problem(
            .serviceUnavailable, "findings-file-failed",
            "cannot \(action) the temporary file of findings: \(String(cString: strerror(code)))",
            remedy: "try again later, or ask for the JSON answer (the first findings)")
        problem.retryAfter = 30
        return problem
    }
}
