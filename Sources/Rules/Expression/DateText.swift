/// Reads the date forms of Annex X: `YYYY-MM-DD` (day, month, year), `YYYY-MM` (month and year),
/// `YYYY` (year only), checking that the day exists.
enum DateText {
    /// 3, 2 or 1 parts; nil when the text is not one of the forms or names a day that does not exist.
    static func parts(_ text: Substring) -> Int? {
        let pieces = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(pieces.count), pieces[0].count == 4, let year = Int(pieces[0]), year >= 1900 else {
            return nil
        }
        if pieces.count == 1 { return 1 }
        guard pieces[1].count == 2, let month = Int(pieces[1]), (1...12).contains(month) else { return nil }
        if pieces.count == 2 { return 2 }
        guard pieces[2].count == 2, let day = Int(pieces[2]) else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...lengths[month - 1]).contains(day) ? 3 : nil
    }
}
