import AuditService

/// Product search (`q`, `type`, `manufacturer`, `offset`), as `itemaudit search`.
struct ProductSearchPage {
    let scope: PageScope
    static let pageSize = 50

    func content() throws -> PageContent {
        let text = scope.request["q"] ?? ""
        let type = try scope.request.integer("type", 0...2)
        let filter = ProductFilter(text: text, productType: type, manufacturer: scope.request["manufacturer"])
        let offset = try scope.request.integer("offset", 0...Int(Int32.max)) ?? 0
        let result = try translate { try scope.queries.search(filter, limit: Self.pageSize, offset: offset) }
        var content = PageContent(page: .search, title: text.isEmpty ? "Search" : "Search: \(text)")
        let parameters = scope.request.parameters.filter { ["q", "type", "manufacturer", "as-of"].contains($0.key) }
        content.csvParameters = parameters.merging(offset > 0 ? ["offset": String(offset)] : [:]) { $1 }
        content.filters = FilterForm(
            action: scope.links.page(.search),
            fields: [
                .init(
                    name: "q", label: "Name, brand, manufacturer, category or GTIN", value: text, type: "search",
                    hint: "jogurtti"),
                PeriodFilters.select(
                    "type", "Product type", scope, (0...2).map { (String($0), ReportLabels.productType($0)) }),
                .init(name: "manufacturer", label: "Manufacturer (exact)", value: scope.request["manufacturer"] ?? ""),
            ])
        content.facts = [.init("Matching products", String(result.total))]
        var table = DataTable(
            name: "products", caption: "Matching products, best match first",
            columns: [
                .init("gtin"), .init("name"), .init("brand"), .init("manufacturer"), .init("productTypeLabel", "type"),
                .init("category"), .init("attributes", numeric: true),
            ],
            rows: result.items.map { hit in
                [
                    .init(hit.gtin, link: scope.link(.product, ["gtin": hit.gtin])), .init(hit.name), .init(hit.brand),
                    .init(hit.manufacturer), .init(hit.productTypeLabel),
                    .init(
                        hit.category,
                        link: scope.link(
                            .search, ["q": hit.category.split(separator: "/").last.map(String.init) ?? hit.category])),
                    .init(String(hit.attributes)),
                ]
            })
        table.emptyText = "No product matches."
        var section = PageContent.Section(
            "Products",
            note: result.total == 0 ? nil : "Rows \(offset + 1)–\(offset + result.items.count) of \(result.total).",
            table: table)
        section.pager = Pager.links(
            scope, page: .search, parameters: parameters, offset: offset, total: result.total, size: Self.pageSize)
        content.sections.append(section)
        content.sections.append(try CategoriesPage(scope: scope).treeSection(filter: filter, depthLimit: 0))
        content.footer = scope.footer(now: scope.pages.now())
        return content
    }
}

/// The category tree with counts (the seed's product discovery), for the search's filters.
struct CategoriesPage {
    let scope: PageScope

    func content() throws -> PageContent {
        let text = scope.request["q"] ?? ""
        let type = try scope.request.integer("type", 0...2)
        let filter = ProductFilter(text: text, productType: type, manufacturer: scope.request["manufacturer"])
        var content = PageContent(page: .categories, title: "Categories")
        content.csvParameters = scope.request.parameters.filter {
            ["q", "type", "manufacturer", "as-of"].contains($0.key)
        }
        content.filters = FilterForm(
            action: scope.links.page(.categories),
            fields: [
                .init(name: "q", label: "Only products matching", value: text, type: "search"),
                PeriodFilters.select(
                    "type", "Product type", scope, (0...2).map { (String($0), ReportLabels.productType($0)) }),
            ])
        content.sections.append(try treeSection(filter: filter, depthLimit: nil))
        content.footer = scope.footer(now: scope.pages.now())
        return content
    }

    /// Bars of the top-level categories and the tree as a table (down to `depthLimit` when given).
    func treeSection(filter: ProductFilter, depthLimit: Int?) throws -> PageContent.Section {
        let nodes = try translate { try scope.queries.categories(filter) }.filter { node in
            depthLimit.map { node.depth <= $0 } ?? true
        }
        let top = nodes.filter { $0.depth == 0 }
        let chart = Chart.stackedBars(
            id: "chart-categories", title: "Products per top-level category", labels: top.map(\.name),
            series: [.init(name: "products", style: Chart.style(3), values: top.map(\.count))])
        var table = DataTable(
            name: "categories", caption: "Category tree with product counts",
            columns: [.init("path", "category"), .init("depth", numeric: true), .init("products", numeric: true)],
            rows: nodes.map { node in
                [
                    .init(node.path, link: scope.link(.search, ["q": node.name])),
                    .init(String(node.depth)), .init(String(node.count)),
                ]
            })
        table.emptyText = "No categories."
        return .init("Categories", chart: top.isEmpty ? nil : chart, table: table)
    }
}
