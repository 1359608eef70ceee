import Chronology

/// Record values a ``FrameDecoder`` reuses from record to record: one per shared event type
/// (plus one for types too long to share), so that delivering a record whose event type differs
/// from the previous one switches to another value instead of assigning a `String` (which would
/// retain one string and release another for almost every record).
///
/// Each value remembers which stream id, actor and event type it holds, so only the fields that
/// changed since it was last used are stored again.
final class RecordTemplates {
    /// What a template holds: tokens compared with the decoder's current ones.
    struct Memo {
        var type = -1
        var stream = -1
        var actor = -1
        /// Whether the template refers to the current frame's buffer.
        var inFrame = false
    }

    static let count = StringTable.slotCount + 1
    /// The template for event types that are not shared.
    static let unshared = StringTable.slotCount

    let records: UnsafeMutablePointer<EventRecord>
    let memos: UnsafeMutablePointer<Memo>
    /// A value to swap into the slot of the template a decoder is using.
    private var spare: EventRecord? = RecordTemplates.blank
    private static let empty = OwnedTail(commandID: "", payload: [])

    init() {
        records = .allocate(capacity: Self.count)
        records.initialize(repeating: Self.blank, count: Self.count)
        memos = .allocate(capacity: Self.count)
        memos.initialize(repeating: Memo(), count: Self.count)
    }

    deinit {
        records.deinitialize(count: Self.count)
        records.deallocate()
        memos.deinitialize(count: Self.count)
        memos.deallocate()
    }

    private static var blank: EventRecord {
        EventRecord(
            position: 0, streamID: "", streamVersion: 0, eventType: "", schemaVersion: 0,
            recordedAt: Timestamp(microsecondsSinceEpoch: 0), occurredAt: Timestamp(microsecondsSinceEpoch: 0),
            actor: "", tail: RecordTail(owner: .owned(empty)))
    }

    /// The spare value, to be given back with ``returnSpare(_:)``.
    func takeSpare() -> EventRecord {
        defer { spare = nil }
        return spare ?? Self.blank
    }

    func returnSpare(_ record: EventRecord) { spare = record }

    /// Forgets what every template holds; at the start of a frame.
    func reset() {
        for index in 0..<Self.count { memos[index] = Memo() }
    }

    /// Lets go of the frame buffer the templates used; at the end of a frame, so that the buffer
    /// can be reused when no delivered record was kept.
    func releaseFrame() {
        for index in 0..<Self.count where memos[index].inFrame {
            records[index].tail.owner = .owned(Self.empty)
            memos[index].inFrame = false
        }
    }
}
