/// Tile paths as C2SP tlog-tiles names them: `tile/<L>/<N>` for a full tile and
/// `tile/<L>/<N>.p/<W>` for a partial one of width W, N written in three-digit groups, all but
/// the last prefixed with `x` (1234067 is `x001/x234/067`).
public enum TilePath {
    /// The width of a full tile.
    public static let width = 256

    /// The path of tile `index` at `level` holding `width` hashes.
    public static func path(level: Int, index: Int, width: Int) -> String {
        var groups: [String] = []
        var rest = index
        repeat {
            let group = String(rest % 1000)
            groups.insert(String(repeating: "0", count: 3 - group.count) + group, at: 0)
            rest /= 1000
        } while rest > 0
        let number = groups.enumerated().map { $0.offset < groups.count - 1 ? "x" + $0.element : $0.element }
            .joined(separator: "/")
        return "tile/\(level)/\(number)" + (width == Self.width ? "" : ".p/\(width)")
    }
}
