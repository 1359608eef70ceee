import Foundation

/// Hands decompressed frames from a reader thread to the replaying thread, in log order, with
/// at most `depth` frames in flight (queued or being decoded) and their buffers recycled.
///
/// The reader reads, checks and decompresses frame N+1 while the replaying thread decodes and
/// delivers frame N. A reader failure travels in order as the item after the last good frame,
/// so it reaches the caller exactly where a sequential replay would have thrown it.
final class FramePipeline: @unchecked Sendable {
    // @unchecked: every mutable property is read and written only while `condition` is locked.

    /// One decompressed frame, or the reader's end or failure.
    enum Item {
        /// A CRC-checked, decompressed frame: its raw records fill `buffer` from offset 0.
        case frame(FrameBuffer, FrameHeader, FrameLocation, ClosedRange<UInt64>)
        case failure(any Error)
        case end
    }

    private let condition = NSCondition()
    private let depth: Int
    private var items: [Item] = []
    private var head = 0
    /// Buffers handed out to the reader and not yet given back by ``release(_:)``.
    private var inFlight = 0
    private var spare: [FrameBuffer] = []
    private var stopped = false
    private var readerDone = false

    init(depth: Int = 3) { self.depth = max(depth, 2) }

    // MARK: The reader's side

    /// A buffer of at least `capacity` bytes for the next frame, waiting while `depth` frames
    /// are in flight; nil once the replaying side has stopped.
    func buffer(capacity: Int) -> FrameBuffer? {
        condition.lock()
        defer { condition.unlock() }
        var spins = 0
        while inFlight >= depth, !stopped { pause(&spins) }
        if stopped { return nil }
        inFlight += 1
        while let buffer = spare.popLast() {
            if buffer.bytes.count >= capacity { return buffer }
        }
        return FrameBuffer(capacity: max(capacity, 64 << 10))
    }

    /// Gives back a buffer taken with ``buffer(capacity:)`` that will not be sent.
    func unused(_ buffer: FrameBuffer) {
        condition.lock()
        inFlight -= 1
        spare.append(buffer)
        condition.unlock()
    }

    /// Queues `item` for the replaying thread.
    func send(_ item: Item) {
        condition.lock()
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    /// Marks the reader thread as finished (it touches nothing of the log afterwards).
    func readerFinished() {
        condition.lock()
        readerDone = true
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

    /// The next item, waiting for the reader when none is queued; a frame's buffer is moved
    /// into `buffer` (so that ``release(_:)`` can tell whether a kept record still uses it).
    func next(into buffer: inout FrameBuffer?) -> Next {
        condition.lock()
        defer { condition.unlock() }
        var spins = 0
        while head == items.count { pause(&spins) }
        let item = items[head]
        items[head] = .end  // the queue keeps no reference to the frame's buffer
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
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
        inFlight -= 1
        if reusable, let buffer { spare.append(buffer) }
        condition.broadcast()
        condition.unlock()
        buffer = nil
    }

    /// Waits for the other side (called with `condition` locked): first by yielding the processor
    /// a few times, since the other side is usually about to hand over a frame, and only then
    /// by sleeping on the condition (a sleep and wake-up per frame costs more than the frame's
    /// decoding on a loaded machine).
    private func pause(_ spins: inout Int) {
        if spins < Self.yields {
            spins += 1
            condition.unlock()
            sched_yield()
            condition.lock()
        } else {
            condition.wait()
        }
    }

    private static let yields = 64

    /// Stops the reader and waits until it has finished.
    func stopAndWait() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !readerDone { condition.wait() }
        items.removeAll()
        spare.removeAll()
        condition.unlock()
    }
}
