import Foundation

/// Reads the parts of a drawn page the tests check: tables by name, chart marks, links, forms.
struct ParsedPage {
    let html: String

    /// A table: its header labels and its rows of cell texts (escaped as printed, links removed).
    struct Table {
        var headers: [String]
        var rows: [[String]]

        /// The cell in column `header` of the first row whose cells `key` are the first ones.
        func cell(row key: [String], column header: String) -> String? {
            guard let column = headers.firstIndex(of: header) else { return nil }
            return rows.first { Array($0.prefix(key.count)) == key }?[safe: column]
        }
    }

    /// A mark of a chart: series, label (or panel and label), value.
    struct Mark: Equatable {
        var series: String
        var label: String?
        var panel: String?
        var value: Int
    }

    /// The labels of the navigation bar's links, in order.
    var navigation: [String] {
        guard let bar = matches(#"<nav aria-label="Pages">(.*?)</nav>"#, in: html).first else { return [] }
        return matches(#"<a href="[^"]*"[^>]*>(.*?)</a>"#, in: bar[1]).map { $0[1] }
    }

    /// Every `<table data-table="…">`, by name.
    var tables: [String: Table] {
        var out: [String: Table] = [:]
        for match in matches(#"<table id="table-[^"]*" data-table="([^"]*)">(.*?)</table>"#, in: html) {
            let body = match[2]
            let headers = matches(#"<th scope="col"[^>]*>(.*?)</th>"#, in: body).map { $0[1] }
            let rows = matches(#"<tr>(<td.*?)</tr>"#, in: body).map { row in
                matches(#"<td[^>]*>(.*?)</td>"#, in: row[1]).map { strip($0[1]) }
            }
            out[match[1]] = Table(headers: headers, rows: rows)
        }
        return out
    }

    /// The ids of the charts (`<svg … id="chart-…">`).
    var chartIDs: [String] { matches(#"<svg [^>]*id="(chart-[^"]*)""#, in: html).map { $0[1] } }

    /// The whole `<svg>` of chart `id`.
    func chart(_ id: String) -> String? {
        matches(#"(<svg [^>]*id="\#(NSRegularExpression.escapedPattern(for: id))".*?</svg>)"#, in: html).first?[1]
    }

    /// The marks carrying numbers in chart `id`: bars (`rect` with `data-value`) and timeline lanes.
    func marks(_ id: String) -> [Mark] {
        guard let svg = chart(id) else { return [] }
        var out: [Mark] = []
        var panel: String?
        for match in matches(
            #"<g class="panel" data-panel="([^"]*)">|<rect [^>]*data-series="([^"]*)" data-label="([^"]*)" data-value="(\d+)"|<g data-series="([^"]*)" data-value="(\d+)">"#,
            in: svg)
        {
            if !match[1].isEmpty {
                panel = match[1]
            } else if !match[2].isEmpty {
                out.append(Mark(series: match[2], label: match[3], panel: panel, value: Int(match[4]) ?? -1))
            } else {
                out.append(Mark(series: match[5], label: nil, panel: nil, value: Int(match[6]) ?? -1))
            }
        }
        return out
    }

    /// Every `href` value.
    var links: [String] { matches(#"href="([^"]*)""#, in: html).map { $0[1] } }

    /// Cell text without the link around it.
    private func strip(_ cell: String) -> String {
        if let match = matches(#"^<a href="[^"]*">(.*)</a>$"#, in: cell).first { return match[1] }
        return cell
    }
}

/// Every match of `pattern` in `text` (dot matches newlines), each as its groups (0 = whole).
func matches(_ pattern: String, in text: String) -> [[String]] {
    guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else {
        return []
    }
    let range = NSRange(text.startIndex..., in: text)
    return regex.matches(in: text, range: range).map { result in
        (0..<result.numberOfRanges).map { index in
            Range(result.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
