import AuditService
import Dispatch
import Foundation
import NIOCore

/// Every finding of an upload as CSV, produced on a check worker and handed to the response
/// writer in chunks, at most two ahead of it: memory stays bounded however many findings there
/// are, and the first rows leave before the last datasheet is checked.
///
/// `@unchecked Sendable`: its mutable state is the stop flag, guarded by `lock`; the semaphore and
/// the stream's continuation are thread-safe.
final class FindingsCSVStream: @unchecked Sendable {
    /// Bytes gathered before a chunk is handed over.
    static let chunkBytes = 64 << 10

    let chunks: AsyncThrowingStream<ByteBuffer, any Error>
    private let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
    private let room = DispatchSemaphore(value: 2)
    private let lock = NSLock()
    private var stopped = false

    init() {
        (chunks, continuation) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        // The writer gone (the client hung up): the producer stops at its next chunk.
        continuation.onTermination = { [weak self] _ in self?.stop() }
    }

    /// Checks `body` and hands over its findings as CSV rows, the header first. Runs on a worker
    /// thread, waiting there while the writer is two chunks behind.
    func produce(_ body: [UInt8], format: DatasheetFormat, engine: RuleEngine) {
        var text = DatasheetFinding.csvHeader
        func hand() -> Bool {
            room.wait()
            if lock.withLock({ stopped }) { return false }
            continuation.yield(ByteBuffer(string: text))
            text = ""
            return true
        }
        do {
            _ = try DatasheetUpload.scan(body, format: format, engine: engine) { datasheet, report in
                for finding in DatasheetFinding.all(of: report, on: datasheet) { text += finding.csvRow }
                return text.utf8.count < Self.chunkBytes || hand()
            }
            if !text.isEmpty { _ = hand() }
            continuation.finish()
        } catch {
            // The body was read once before answering, so this is rare (the temporary file); the
            // connection is cut rather than a short CSV passing for a whole one.
            continuation.finish(throwing: error)
        }
    }

    /// Call after writing each chunk: lets the producer hand over one more.
    func consumed() { room.signal() }

    /// Stops the producer at its next chunk.
    func stop() {
        lock.withLock { stopped = true }
        room.signal()
    }
}
