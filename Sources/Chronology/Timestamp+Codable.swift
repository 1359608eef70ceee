extension CodingUserInfoKey {
    /// Set to a ``Timestamp/TextForm`` in an encoder's `userInfo` to choose how every
    /// ``Timestamp`` it encodes writes its fraction; ``Timestamp/TextForm/compact`` when unset.
    ///
    /// A command's canonical line (the text its fingerprint is computed over) sets
    /// ``Timestamp/TextForm/microseconds``: the fingerprints the log keeps were computed over
    /// six-digit times, and a resent command must match them.
    public static let timestampTextForm = CodingUserInfoKey(rawValue: "ItemAudit.timestampTextForm")!
}

extension Timestamp: Codable {
    /// Encodes as ISO 8601 text, `2026-01-05T08:00:00Z`, in the form the encoder's
    /// ``CodingUserInfoKey/timestampTextForm`` names (``TextForm/compact`` by default).
    public func encode(to encoder: any Encoder) throws {
        let form = encoder.userInfo[.timestampTextForm] as? TextForm ?? .compact
        var container = encoder.singleValueContainer()
        try container.encode(iso8601(form))
    }

    /// Decodes ISO 8601 text as ``init(iso8601:)`` reads it, or a whole number of microseconds
    /// since the epoch.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text: String
        do {
            // Text first: it is what every writer writes (and a command's time is decoded on
            // every append).
            text = try container.decode(String.self)
        } catch {
            guard let micros = try? container.decode(Int64.self) else { throw error }
            self.init(microsecondsSinceEpoch: micros)
            return
        }
        guard let parsed = Timestamp(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "'\(text)' is not an ISO 8601 date or date-time (use 2026-03-01T08:00:00Z)")
        }
        self = parsed
    }
}
