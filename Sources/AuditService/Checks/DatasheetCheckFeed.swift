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

    /// Starts reading and checking `files` with `engine` on a thread of its own; the file named
    /// `-` is standard input, read as `standardInputFormat`.
    public init(files: [String], engine: RuleEngine, standardInputFormat: DatasheetFormat = .jsonl) {
        (chunks, continuation) = AsyncThrowingStream.makeStream(of: [Item].self)
        let thread = Thread { [self] in produce(files: files, engine: engine, stdin: standardInputFormat) }
        thread.start()
    }

    /// Call after handling each chunk: lets the producer read one more.
    public func consumed() { room.signal() }

    /// Stops the producer at its next chunk.
    public func cancel() {
        lock.withLock { cancelled = true }
        room.signal()
    }

    /// How many records past a full chunk are read while a parent in it still waits for a child
    /// (a CIN puts a case's children right after it).
    static let childLookahead = 256

    private func produce(files: [String], engine: RuleEngine, stdin: DatasheetFormat) {
        // Records are read a chunk ahead of checking, so a case or pallet is checked with the net
        // contents of children that follow it (ChildNetContents, rule QTY-010).
        var read: [ImportRecord] = []
        var netContents = ChildNetContents()
        var awaited = Set<String>()
        var chunk: [Item] = []
        func hand() -> Bool {
            for record in read {
                switch record {
                case .datasheet(let datasheet, let issues):
                    chunk.append(.checked(datasheet, engine.check(netContents.annotated(datasheet)), issues: issues))
                case .failed(let issue):
                    chunk.append(.failed(issue))
                }
            }
            read.removeAll(keepingCapacity: true)
            awaited.removeAll()
            room.wait()
            if lock.withLock({ cancelled }) { return false }
            continuation.yield(chunk)
            chunk.removeAll(keepingCapacity: true)
            return true
        }
        do {
            for file in files {
                var going = true
                try DatasheetImporter.read(path: file, format: file == "-" ? stdin : nil) { record in
                    if case .datasheet(let datasheet, _) = record {
                        netContents.remember(datasheet)
                        if let gtin = datasheet.gtin { awaited.remove(ChildNetContents.gtin14(gtin)) }
                        for child in ChildNetContents.children(of: datasheet) where !netContents.knows(child.gtin) {
                            awaited.insert(ChildNetContents.gtin14(child.gtin))
                        }
                    }
                    read.append(record)
                    if read.count >= Self.chunkSize,
                        awaited.isEmpty || read.count >= Self.chunkSize + Self.childLookahead
                    {
                        going = hand()
                    }
                    return going
                }
                guard going else { return continuation.finish() }
            }
            if !read.isEmpty, !hand() { return continuation.finish() }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }
}
