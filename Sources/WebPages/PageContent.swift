import AuditService

/// What a page shows, before it becomes HTML: facts, a filter form, and sections of a chart with
/// its table.
struct PageContent: Sendable {
    /// A fact shown at the top (`Catalogue coverage: 71.3 %`).
    struct Fact: Sendable {
        var label: String
        var value: String
        var link: String?

        init(_ label: String, _ value: String, link: String? = nil) {
            self.label = label
            self.value = value
            self.link = link
        }
    }

    /// One part of the page: a heading, an optional chart (SVG built by ``Chart``) and a table.
    struct Section: Sendable {
        var heading: String
        var note: String?
        var chart: Chart?
        var table: DataTable?
        /// Links to the pages before and after (long tables come in pages).
        var pager: [Fact] = []
        /// Photo thumbnails, shown above the table.
        var photos: [Thumbnail] = []

        init(_ heading: String, note: String? = nil, chart: Chart? = nil, table: DataTable? = nil) {
            self.heading = heading
            self.note = note
            self.chart = chart
            self.table = table
        }
    }

    var page: PageName
    var title: String
    var facts: [Fact] = []
    var filters: FilterForm?
    var sections: [Section] = []
    /// A form the page posts (the rule-check upload on the server).
    var upload: UploadForm?
    /// The page's own parameters, as its CSV links repeat them.
    var csvParameters: [String: String] = [:]
    /// The line at the bottom: what the page was drawn from.
    var footer = ""

    init(page: PageName, title: String) {
        self.page = page
        self.title = title
    }

    /// Every table, in page order.
    var tables: [DataTable] { sections.compactMap(\.table) }
}

/// A photo shown small, linking to itself at full size.
struct Thumbnail: Sendable {
    /// The image's address (the server's authenticated route, or a file beside a static page).
    var source: String
    /// What it shows, for a person who cannot see it.
    var alt: String
    /// The line under it.
    var caption: String
    static let width = 160
    static let height = 120
}

/// The GET form of a page's filters: each field with its label and current value.
struct FilterForm: Sendable {
    struct Field: Sendable {
        var name: String
        var label: String
        var value: String
        /// A `<select>` when not empty: (value, label) pairs.
        var options: [(value: String, label: String)] = []
        var type = "text"
        var hint: String?
    }

    var action: String
    var fields: [Field]
}

/// A POST form with a file field (the server's rule-check upload).
struct UploadForm: Sendable {
    var action: String
    var fieldName: String
    var label: String
}
