/// A sample arrived damaged (seed 4.2.5): it is not queued for inspection, and the manufacturer is
/// asked for a replacement. Appended with the `ProductReceived` that recorded the damaged sample,
/// so the log says both what arrived and what was asked for; the replacement arrives as a new
/// reception.
public struct ReplacementRequested: InspectionEventPayload {
    public static let eventType = "ReplacementRequested"
    public static let schemaVersion = 1
    /// The reception of the damaged sample.
    public var receptionID: String
    /// The product's GTIN-14.
    public var gtin: String
    /// The inspection centre the replacement should be sent to.
    public var locationID: String
    /// The receiver who found the sample damaged.
    public var requestedBy: String

    /// Creates the event.
    public init(receptionID: String, gtin: String, locationID: String, requestedBy: String) {
        self.receptionID = receptionID
        self.gtin = gtin
        self.locationID = locationID
        self.requestedBy = requestedBy
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(receptionID)
        writer.string(gtin)
        writer.string(locationID)
        writer.string(requestedBy)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(
            receptionID: try reader.string(), gtin: try reader.string(), locationID: try reader.string(),
            requestedBy: try reader.string())
    }
}
