import AuditService
import Foundation
import Testing

@testable import WebPages

/// The batch page's timeline labels its lanes left of the plot, right-aligned: the margin must hold
/// the longest label, or its start is cut off at the picture's left edge.
@Suite("Timeline chart margin")
struct TimelineMarginTests {
    /// The x of each lane label and its text.
    static func labels(_ svg: String) -> [(x: Double, text: String)] {
        let pattern = #/<text class="label" x="([0-9.]+)" y="[0-9.]+" text-anchor="end">([^<]*)</text>/#
        return svg.matches(of: pattern).map { (Double($0.output.1) ?? 0, String($0.output.2)) }
    }

    @Test("every lane label fits left of the plot, however long the event type")
    func labelsFit() {
        let lanes = ["BatchAllocated", "AttributeVerdictRecorded", "InspectionFinished"]
        let now = Timestamp(microsecondsSinceEpoch: 1_700_000_000_000_000)
        let events = (0..<30).map { index in
            (
                time: Timestamp(microsecondsSinceEpoch: now.microsecondsSinceEpoch + Int64(index) * 60_000_000),
                lane: index % 3, label: "event \(index)"
            )
        }
        let chart = Chart.timeline(
            id: "t", title: "Batch timeline", lanes: lanes, events: events, counts: [1, 2840, 1])
        let labels = Self.labels(chart.svg)
        #expect(labels.count == 3)
        for label in labels {
            // About 7 px a character in the chart's 12 px font: the text starts right of x = 0.
            #expect(label.x - Double(label.text.count) * 7 >= 0, "\(label.text) at x \(label.x)")
        }
        #expect(labels.contains { $0.text == "AttributeVerdictRecorded (2840)" })
    }
}
