/// How a page writes its links: to the server's routes, or to files beside it.
public enum PageLinks: Sendable, Hashable {
    /// `basePath/PAGE?query` for pages and `…&format=csv` for a table's CSV (`basePath` such as
    /// `/pages`, no trailing slash).
    case server(basePath: String)
    /// Relative file names: `PAGE.html`, `PAGE-TABLE.csv`, and `product-GTIN.html` style names
    /// for the pages of one subject (``PageLinks/fileName(_:_:)``).
    case staticFiles
}
