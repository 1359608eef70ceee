import AuditService

/// A table of a page: its columns and rows, drawn as HTML under a chart and as CSV.
///
/// The CSV header is the columns' keys (the CLI's JSON keys where the column is one), the HTML
/// header their labels.
struct DataTable: Sendable {
    /// A column: its CSV key, its header for people, and whether it holds numbers (right-aligned).
    struct Column: Sendable {
        var key: String
        var label: String
        var numeric: Bool

        init(_ key: String, _ label: String? = nil, numeric: Bool = false) {
            self.key = key
            self.label = label ?? key
            self.numeric = numeric
        }
    }

    /// A cell: its text, and a link when it names something with a page of its own.
    struct Cell: Sendable {
        var text: String
        var link: String?

        init(_ text: String, link: String? = nil) {
            self.text = text
            self.link = link
        }
    }

    /// The table's name in CSV links and file names (`coverage-type`).
    var name: String
    /// What the table shows, for its `<caption>`.
    var caption: String
    var columns: [Column]
    var rows: [[Cell]]
    /// Where the table's CSV is (set by the page when it knows its links).
    var csvLink: String = ""
    /// The rows of the CSV when the page shows only some (nil: the same as ``rows``).
    var csvRows: [[Cell]]?
    /// Said instead of the table when there are no rows.
    var emptyText = "Nothing to show for these filters."

    init(name: String, caption: String, columns: [Column], rows: [[Cell]]) {
        self.name = name
        self.caption = caption
        self.columns = columns
        self.rows = rows
    }

    /// RFC 4180 CSV through ``CSV``: the keys, then the rows, CRLF after each. It is for
    /// spreadsheets, so a cell a spreadsheet would run as a formula is written as text (product
    /// names come from suppliers).
    func csv() -> String {
        var out = CSV.record(columns.map(\.key)) + "\r\n"
        for row in csvRows ?? rows {
            out += CSV.record(row.map(\.text)) + "\r\n"
        }
        return out
    }

    /// The Mustache context of the table. The rows come as HTML built here (each cell escaped):
    /// a table can have thousands of cells, and one string builder appends each where a template
    /// section per cell would look up and render a context for every one.
    func context() -> [String: Any] {
        [
            "name": name,
            "caption": caption,
            "csvLink": csvLink,
            "empty": rows.isEmpty,
            "emptyText": emptyText,
            "columns": columns.map { ["label": $0.label, "numeric": $0.numeric] as [String: Any] },
            "body": bodyHTML(),
        ]
    }

    /// `<tr><td>…</td>…</tr>` for every row, each text escaped, links as `<a href>`.
    func bodyHTML() -> String {
        var out = ""
        out.reserveCapacity(rows.count * columns.count * 24)
        let openers = columns.map { $0.numeric ? "<td class=\"num\">" : "<td>" }
        for row in rows {
            out += "<tr>"
            for (index, cell) in row.enumerated() {
                out += openers[index < openers.count ? index : openers.count - 1]
                if let link = cell.link {
                    out += "<a href=\""
                    out += HTML.escape(link)
                    out += "\">"
                    out += HTML.escape(cell.text)
                    out += "</a>"
                } else {
                    out += HTML.escape(cell.text)
                }
                out += "</td>"
            }
            out += "</tr>\n"
        }
        return out
    }
}
