/// One event type at one schema version: its binary payload and its JSON form.
///
/// The JSON form (the synthesized `Codable` conformance, camelCase keys) is described by
/// `Schemas/events/<eventType>.v<schemaVersion>.json`; a test checks they agree.
public protocol EventPayload: Sendable, Hashable, Codable {
    /// The event type name stored in the log, e.g. `BatchAllocated`.
    static var eventType: String { get }
    /// The schema version this type writes.
    static var schemaVersion: Int { get }
    /// Appends the payload bytes.
    func encode(into writer: inout PayloadWriter)
    /// Reads the payload bytes written by ``encode(into:)``.
    init(from reader: inout PayloadReader) throws(PayloadDecodingError)
}

extension EventPayload {
    /// The payload bytes.
    public func encoded() -> [UInt8] {
        var writer = PayloadWriter()
        encode(into: &writer)
        return writer.bytes
    }
}
