/// A photo attached by mistake was removed from its task before the batch was submitted. The
/// image stays in the blob store (another task may name it, and the log keeps its attachment).
public struct PhotoDetached: InspectionEventPayload {
    public static let eventType = "PhotoDetached"
    public static let taskEventKind: TaskEvent.Kind? = .photoDetached
    public static let schemaVersion = 1
    /// The task.
    public var taskID: String
    /// Lower-case hex SHA-256 of the image, as its `PhotoAttached` named it.
    public var sha256: String

    /// Creates the event.
    public init(taskID: String, sha256: String) {
        self.taskID = taskID
        self.sha256 = sha256
    }

    public func encode(into writer: inout PayloadWriter) {
        writer.string(taskID)
        writer.string(sha256)
    }

    public init(from reader: inout PayloadReader) throws(PayloadDecodingError) {
        self.init(taskID: try reader.string(), sha256: try reader.string())
    }
}
