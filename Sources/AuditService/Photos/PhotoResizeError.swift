/// Why a stored photo could not be served resized.
public enum PhotoResizeError: Error, Sendable, Equatable {
    /// The bytes are not a JPEG, PNG or HEIC image.
    case unsupportedFormat
    /// The image has more pixels than the server decodes.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Every resize slot and every waiting place is taken.
    case busy
    /// libvips could not read or write the image.
    case failed(String)

    /// A sentence for the answer: what is wrong and what to do.
    public var message: String {
        switch self {
        case .unsupportedFormat:
            "the stored bytes are not a JPEG, PNG or HEIC image, the only formats served (upload the photo again as one of them)"
        case .tooManyPixels(let width, let height, let limit):
            "the photo is \(width) x \(height) pixels; the server resizes at most \(limit) pixels (ask for size=full)"
        case .busy: "every photo resize is taken (try again in a moment)"
        case .failed(let reason): "the photo could not be resized: \(reason) (ask for size=full)"
        }
    }
}
