import Foundation

/// Hands decompressed frames from reader threads to the replaying thread, in log order, with
/// at most `depth` frames in flight (queued or being decoded) and their buffers recycled.
///
/// Frames are numbered in read order from 0; each reader thread checks and decompresses its
/// share of them (frame `n` goes to reader `n % readers`) while the replaying thread decodes and
/// delivers earlier ones. A reader may work on frame `n` only while `n` is less than `depth`
/// frames ahead of the one being delivered, so the reader owning that one is never starved of
/// a buffer. A failure travels as the item numbered like the frame it happened at, so it
/// reaches the caller exactly where a sequential replay would have thrown it.
final class FramePipeline: @unchecked Sendable {
    // @unchecked: every mutable property is read and written only while `condition` is locked.

    /// One decompressed frame, or the readers' end or failure.
    enum Item {
        /// A CRC-checked, decompressed frame: its raw records fill `buffer` from offset 0.
        case frame(FrameBuffer, FrameHeader, FrameLocation, ClosedRange<UInt64>)
        case failure(any Error)
        case end
    }

    private let condition = NSCondition()
    private let depth: Int
    let readers: Int
    /// Items that arrived, by number; the first one for a number wins.
    private var items: [Int: Item] = [:]
    /// The number of the next item the replaying side takes.
    private var next = 0
    private var spare: [FrameBuffer] = []
    private var stopped = false
    private var finishedReaders = 0

    init(readers: Int = 1, depth: Int = 3) {
        self.readers = max(readers, 1)
        self.depth = max(depth, self.readers + 1)
    }

    // MARK: The readers' side

    /// A buffer of at least `capacity` bytes for frame `number`, waiting until that frame is
    /// within `depth` of the one being delivered; nil once the replaying side has stopped.
    func buffer(capacity: Int, for number: Int) -> FrameBuffer? {
        condition.lock()
        defer { condition.unlock() }
        while number >= next + depth, !stopped { condition.wait() }
        if stopped { return nil }
        while let buffer = spare.popLast() {
            if buffer.bytes.count >= capacity { return buffer }
        }
        return FrameBuffer(capacity: max(capacity, 64 << 10))
    }

    /// Gives back a buffer taken with ``buffer(capacity:for:)`` that will not be sent.
    func unused(_ buffer: FrameBuffer) {
        condition.lock()
        spare.append(buffer)
        condition.unlock()
    }

    /// Queues `item` as item `number` for the replaying thread (ignored when one is there).
    func send(_ item: Item, as number: Int) {
        condition.lock()
        if number >= next, items[number] == nil { items[number] = item }
        condition.broadcast()
        condition.unlock()
    }

    /// Marks one reader thread as finished (it touches nothing of the log afterwards).
    func readerFinished() {
        condition.lock()
        finishedReaders += 1
        condition.broadcast()
        condition.unlock()
    }

    // MARK: The replaying side

    /// What ``next(into:)`` found.
    enum Next {
        case frame(FrameHeader, FrameLocation, ClosedRange<UInt64>)
        case failure(any Error)
        case end
    }

    /// The next item in order, waiting for the readers when it has not arrived; a frame's buffer
    /// is moved into `buffer` (so that ``release(_:)`` can tell whether a kept record still uses it).
    func next(into buffer: inout FrameBuffer?) -> Next {
        condition.lock()
        defer { condition.unlock() }
        while items[next] == nil {
            if finishedReaders == readers {
                return .failure(EventLogError(.io, "the replay readers stopped early (retry the read)"))
            }
            condition.wait()
        }
        let item = items.removeValue(forKey: next)!
        next += 1
        condition.broadcast()
        switch item {
        case .frame(let frame, let header, let location, let range):
            buffer = frame
            return .frame(header, location, range)
        case .failure(let error): return .failure(error)
        case .end: return .end
        }
    }

    /// Returns a frame's buffer once its records are delivered: recycled unless a record the
    /// caller kept still refers to it (then it is left to them and never written again).
    func release(_ buffer: inout FrameBuffer?) {
        let reusable = isKnownUniquelyReferenced(&buffer)
        condition.lock()
        if reusable, let buffer { spare.append(buffer) }
        condition.unlock()
        buffer = nil
    }

    /// Stops the readers and waits until they have finished.
    func stopAndWait() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while finishedReaders < readers { condition.wait() }
        items.removeAll()
        spare.removeAll()
        condition.unlock()
    }
}
