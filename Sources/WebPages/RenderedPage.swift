/// A page drawn: its title, the whole HTML document and the HTTP status it stands for (200, or
/// 400 for a bad parameter, 403 for another inspector's work, 404 for an unknown subject).
public struct RenderedPage: Sendable, Hashable {
    /// The page's `<title>`.
    public var title: String
    /// The whole document, `<!doctype html>` to `</html>`, with its stylesheet and charts inline.
    public var html: String
    /// The HTTP status the page stands for.
    public var status: Int

    /// A page from its parts.
    public init(title: String, html: String, status: Int = 200) {
        self.title = title
        self.html = html
        self.status = status
    }
}
