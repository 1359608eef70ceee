/// The sizes a stored photo is served in (`GET /v1/photos/{sha256}?size=`).
public enum PhotoSize: String, Sendable, CaseIterable {
    /// A list's or a task's small picture.
    case thumb
    /// A picture filling a phone's screen.
    case view
    /// The stored bytes themselves.
    case full

    /// The longest edge, in pixels, a resized answer fits in; nil for the stored bytes.
    public var longestEdge: Int? {
        switch self {
        case .thumb: 256
        case .view: 1280
        case .full: nil
        }
    }
}
