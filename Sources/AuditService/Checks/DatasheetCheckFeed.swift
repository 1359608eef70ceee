import Datasheets
import Dispatch
import Foundation
import Rules

/// Imports and checks datasheet files on a thread of its own and hands the results over in chunks,
/// at most two chunks ahead of the consumer: memory stays bounded however large the files are, and
/// recording one chunk in the log overlaps with checking the next.
///
/// `@unchecked Sendable`: its mutable state is the cancellation flag, guarded by `lock`; the
/// semaphore and the stream's continuation are thread-safe.
public final class DatasheetCheckFeed: @unchecked Sendable {
    /// One result of the import: a checked datasheet, or a record that could not be read.
    public enum Item: Sendable {
        case checked(Datasheet, DatasheetReport, issues: [ImportIssue])
        case failed(ImportIssue)
    }

    /// Datasheets per chunk.
    public static let chunkSize = 1000

    /// The chunks, in file order; the stream throws the first file-level error (an unreadable file).
    public let chunks: AsyncThrowingStream<[Item], any Error>

    private let room = DispatchSemaphore(value: 2)
    private let lock = NSLock()
    private var cancelled = false
    private let continuation: AsyncThrowingStream<[Item], any Error>.Continuation

    /// Starts reading and checking `files` with `engine` on a thread of its own.
    public init(files: [String], engine: RuleEngine) {
        (chunks, continuation) = AsyncThrowingStream.makeStream(of: [Item].self)
        let thread = Thread { [self] in produce(files: files, engine: engine) }
        thread.start()
    }

    /// Call after handling each chunk: lets the producer read one more.
    public func consumed() { room.signal() }

    /// Stops the producer at its next chunk.
    public func cancel() {
        lock.withLock { cancelled = true }
        room.signal()
    }

    private func produce(files: [String], engine: RuleEngine) {
        var chunk: [Item] = []
        func hand() -> Bool {
            room.wait()
            if lock.withLock({ cancelled }) { return false }
            continuation.yield(chunk)
            chunk.removeAll(keepingCapacity: true)
            return true
        }
        do {
            for file in files {
                var going = true
                try DatasheetImporter.read(path: file) { record in
                    switch record {
                    case .datasheet(let datasheet, let issues):
                        chunk.append(.checked(datasheet, engine.check(datasheet), issues: issues))
                    case .failed(let issue):
                        chunk.append(.failed(issue))
                    }
                    if chunk.count >= Self.chunkSize { going = hand() }
                    return going
                }
                guard going else { return continuation.finish() }
            }
            if !chunk.isEmpty, !hand() { return continuation.finish() }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }
}
