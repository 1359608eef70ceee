import AuditService

/// An SVG chart drawn on the server: the markup, and what it shows in words (its text
/// alternative). Every value printed into it is escaped; every bar carries its number in
/// `data-value` and in its `<title>`, the same number as the table under the chart.
struct Chart: Sendable {
    /// The `<svg>` element.
    var svg: String
    /// The text alternative (also the SVG's `<title>`).
    var summary: String

    /// One series of a stacked bar chart: its name and CSS class (its colour), one value per bar.
    struct Series: Sendable {
        var name: String
        var style: String
        var values: [Int]
    }

    /// The colours of the series, in order (CSS classes `s0`…`s5` in the stylesheet).
    static func style(_ index: Int) -> String { "s\(index % 6)" }

    /// Horizontal stacked bars: one bar per label, one segment per series, a legend on top.
    static func stackedBars(id: String, title: String, labels: [String], series: [Series]) -> Chart {
        let rowHeight = 22.0
        let labelWidth = 170.0
        let width = 720.0
        let barWidth = width - labelWidth - 70
        let legendHeight = 26.0
        let height = legendHeight + Double(max(labels.count, 1)) * rowHeight + 6
        let totals = labels.indices.map { index in series.reduce(0) { $0 + ($1.values[safe: index] ?? 0) } }
        let maximum = max(totals.max() ?? 0, 1)
        let summary =
            title + ". "
            + labels.indices.map { index in
                labels[index] + ": "
                    + series.map { "\($0.name) \($0.values[safe: index] ?? 0)" }.joined(separator: ", ")
            }.joined(separator: "; ")
        var svg = open(id: id, width: width, height: height, title: title, summary: summary)
        svg += legend(series.map { ($0.name, $0.style) }, y: 14)
        for (index, label) in labels.enumerated() {
            let y = legendHeight + Double(index) * rowHeight
            svg += "<text class=\"label\" x=\"\(fmt(labelWidth - 6))\" y=\"\(fmt(y + 15))\" text-anchor=\"end\">"
            svg += HTML.escape(clip(label, 26)) + "<title>" + HTML.escape(label) + "</title></text>"
            var x = labelWidth
            for item in series {
                let value = item.values[safe: index] ?? 0
                let length = barWidth * Double(value) / Double(maximum)
                svg +=
                    "<rect class=\"\(item.style)\" x=\"\(fmt(x))\" y=\"\(fmt(y + 3))\" width=\"\(fmt(length))\" height=\"16\""
                    + " data-series=\"\(HTML.escape(item.name))\" data-label=\"\(HTML.escape(label))\" data-value=\"\(value)\">"
                    + "<title>\(HTML.escape(label)): \(HTML.escape(item.name)) \(value)</title></rect>"
                x += length
            }
            svg += "<text class=\"value\" x=\"\(fmt(x + 4))\" y=\"\(fmt(y + 15))\">\(totals[index])</text>"
        }
        return Chart(svg: svg + "</svg>", summary: summary)
    }

    /// Small multiples: one little column chart per panel (an inspector), same scale in all, each
    /// column one period (a day) stacked by series.
    static func smallMultiples(
        id: String, title: String, panels: [(name: String, periods: [String], series: [Series])]
    ) -> Chart {
        let panelWidth = 220.0
        let panelHeight = 90.0
        let columns = 3
        let legendHeight = 26.0
        let rows = (panels.count + columns - 1) / columns
        let width = panelWidth * Double(columns) + 10
        let height = legendHeight + Double(max(rows, 1)) * (panelHeight + 34)
        let maximum = max(
            panels.flatMap { panel in
                panel.periods.indices.map { index in panel.series.reduce(0) { $0 + ($1.values[safe: index] ?? 0) } }
            }.max() ?? 0, 1)
        let summary =
            title + ". "
            + panels.map { panel in
                panel.name + ": "
                    + panel.series.map { "\($0.name) \($0.values.reduce(0, +))" }.joined(separator: ", ")
            }.joined(separator: "; ")
        var svg = open(id: id, width: width, height: height, title: title, summary: summary)
        if let first = panels.first { svg += legend(first.series.map { ($0.name, $0.style) }, y: 14) }
        for (number, panel) in panels.enumerated() {
            let left = Double(number % columns) * panelWidth + 4
            let top = legendHeight + Double(number / columns) * (panelHeight + 34)
            svg += "<g class=\"panel\" data-panel=\"\(HTML.escape(panel.name))\">"
            svg += "<text class=\"label\" x=\"\(fmt(left))\" y=\"\(fmt(top + 12))\">"
            svg += HTML.escape(clip(panel.name, 30)) + "<title>" + HTML.escape(panel.name) + "</title></text>"
            let baseline = top + 18 + panelHeight
            svg +=
                "<line class=\"axis\" x1=\"\(fmt(left))\" y1=\"\(fmt(baseline))\" x2=\"\(fmt(left + panelWidth - 16))\" y2=\"\(fmt(baseline))\"/>"
            let step = (panelWidth - 16) / Double(max(panel.periods.count, 1))
            for (index, period) in panel.periods.enumerated() {
                var y = baseline
                for item in panel.series {
                    let value = item.values[safe: index] ?? 0
                    let length = panelHeight * Double(value) / Double(maximum)
                    y -= length
                    svg +=
                        "<rect class=\"\(item.style)\" x=\"\(fmt(left + Double(index) * step))\" y=\"\(fmt(y))\" width=\"\(fmt(max(step - 1, 0.5)))\" height=\"\(fmt(length))\""
                        + " data-series=\"\(HTML.escape(item.name))\" data-label=\"\(HTML.escape(period))\" data-value=\"\(value)\">"
                        + "<title>\(HTML.escape(panel.name)) \(HTML.escape(period)): \(HTML.escape(item.name)) \(value)</title></rect>"
                }
            }
            svg += "</g>"
        }
        return Chart(svg: svg + "</svg>", summary: summary)
    }

    /// A timeline: one mark per event along a time axis, one lane per kind of event.
    /// `counts` are the lane totals printed (the marks may be a sample of them); counted from
    /// `events` when nil.
    static func timeline(
        id: String, title: String, lanes: [String], events: [(time: Timestamp, lane: Int, label: String)],
        counts: [Int]? = nil
    ) -> Chart {
        // The lane labels sit left of the plot, right-aligned: the margin is as wide as the longest
        // label (`AttributeVerdictRecorded (70)`) at about 7 px a character in the 12 px chart font,
        // so none starts left of the picture; a label longer than the cap is clipped (its full text
        // is in the lane's title). The plot keeps its width.
        let laneHeight = 24.0
        let height = Double(max(lanes.count, 1)) * laneHeight + 30
        let first = events.map(\.time).min() ?? Timestamp(microsecondsSinceEpoch: 0)
        let last = events.map(\.time).max() ?? Timestamp(microsecondsSinceEpoch: 0)
        let span = Double(max(last.microsecondsSinceEpoch - first.microsecondsSinceEpoch, 1))
        let counts = counts ?? lanes.indices.map { lane in events.filter { $0.lane == lane }.count }
        let longest = zip(lanes, counts).map { "\($0) (\($1))".count }.max() ?? 0
        let maxLabelCharacters = 48
        let labelWidth = max(150.0, Double(min(longest, maxLabelCharacters)) * 7 + 12)
        let width = 570.0 + labelWidth
        let summary =
            title + ". " + zip(lanes, counts).map { "\($0): \($1)" }.joined(separator: "; ")
            + (events.isEmpty
                ? ""
                : "; from \(first.iso8601) to \(last.iso8601)")
        var svg = open(id: id, width: width, height: height, title: title, summary: summary)
        for (index, lane) in lanes.enumerated() {
            let y = Double(index) * laneHeight + 16
            let label = "\(lane) (\(counts[index]))"
            svg +=
                "<g data-series=\"\(HTML.escape(lane))\" data-value=\"\(counts[index])\"><title>\(HTML.escape(label))</title>"
            svg += "<text class=\"label\" x=\"\(fmt(labelWidth - 6))\" y=\"\(fmt(y + 4))\" text-anchor=\"end\">"
            svg += HTML.escape(clip(label, maxLabelCharacters)) + "</text>"
            svg +=
                "<line class=\"axis\" x1=\"\(fmt(labelWidth))\" y1=\"\(fmt(y))\" x2=\"\(fmt(width - 10))\" y2=\"\(fmt(y))\"/></g>"
        }
        for event in events {
            let x =
                labelWidth + (width - labelWidth - 16)
                * Double(event.time.microsecondsSinceEpoch - first.microsecondsSinceEpoch) / span
            let y = Double(event.lane) * laneHeight + 16
            svg +=
                "<circle class=\"\(style(event.lane))\" cx=\"\(fmt(x))\" cy=\"\(fmt(y))\" r=\"4\"><title>\(HTML.escape(event.label))</title></circle>"
        }
        if !events.isEmpty {
            let axisY = Double(lanes.count) * laneHeight + 20
            svg +=
                "<text class=\"value\" x=\"\(fmt(labelWidth))\" y=\"\(fmt(axisY))\">\(first.civilDate)</text>"
            svg +=
                "<text class=\"value\" x=\"\(fmt(width - 10))\" y=\"\(fmt(axisY))\" text-anchor=\"end\">\(last.civilDate)</text>"
        }
        return Chart(svg: svg + "</svg>", summary: summary)
    }

    private static func open(id: String, width: Double, height: Double, title: String, summary: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"\(HTML.escape(id))\" role=\"img\""
            + " aria-labelledby=\"\(HTML.escape(id))-title \(HTML.escape(id))-desc\" viewBox=\"0 0 \(fmt(width)) \(fmt(height))\""
            + " width=\"\(fmt(width))\" height=\"\(fmt(height))\" preserveAspectRatio=\"xMinYMin meet\">"
            + "<title id=\"\(HTML.escape(id))-title\">\(HTML.escape(title))</title>"
            + "<desc id=\"\(HTML.escape(id))-desc\">\(HTML.escape(summary))</desc>"
    }

    private static func legend(_ items: [(name: String, style: String)], y: Double) -> String {
        var x = 4.0
        var out = "<g class=\"legend\">"
        for item in items {
            out += "<rect class=\"\(item.style)\" x=\"\(fmt(x))\" y=\"\(fmt(y - 10))\" width=\"12\" height=\"12\"/>"
            out += "<text class=\"label\" x=\"\(fmt(x + 16))\" y=\"\(fmt(y))\">\(HTML.escape(item.name))</text>"
            x += 24 + Double(item.name.count) * 7
        }
        return out + "</g>"
    }

    /// `value` with at most one decimal.
    static func fmt(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// At most `length` characters, with an ellipsis when cut (the full text is in a `<title>`).
    static func clip(_ text: String, _ length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
