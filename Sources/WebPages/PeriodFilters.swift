import AuditService

/// The filter forms of the pages: period and as-of, and each page's own fields.
enum PeriodFilters {
    /// `from`, `to` and `as-of`, with the request's values.
    static func fields(_ scope: PageScope) -> [FilterForm.Field] {
        [
            .init(name: "from", label: "From (inclusive)", value: scope.request["from"] ?? "", hint: "2026-01-01"),
            .init(name: "to", label: "To (exclusive)", value: scope.request["to"] ?? "", hint: "2026-02-01"),
            .init(
                name: "as-of", label: "As of (time or position)", value: scope.request["as-of"] ?? "",
                hint: "2026-02-01T12:00:00Z"),
        ]
    }

    /// A form with the period fields and `extra`, sent to `page`.
    static func form(_ scope: PageScope, page: PageName, extra: [FilterForm.Field] = []) -> FilterForm {
        FilterForm(action: scope.links.page(page), fields: extra + fields(scope))
    }

    /// A `<select>` of `choices` (value, label) with an "any" first.
    static func select(
        _ name: String, _ label: String, _ scope: PageScope, _ choices: [(value: String, label: String)],
        any: String? = "any"
    ) -> FilterForm.Field {
        var field = FilterForm.Field(name: name, label: label, value: scope.request[name] ?? "")
        field.options = (any.map { [("", $0)] } ?? []) + choices
        return field
    }
}
