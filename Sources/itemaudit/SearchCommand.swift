import ArgumentParser
import AuditService
import Foundation

/// `itemaudit search TEXT`: product discovery.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search products by name, brand, manufacturer or GTIN; filter by type and manufacturer; paginated.",
        discussion: """
            Words match by prefix (all must match); digits alone match the GTIN. With --categories, \
            prints the category tree with product counts instead (TEXT may then be empty).

            Example:
              itemaudit search "kultasato jogurtti" --type 0 --limit 10 --page 2
            """
    )

    @OptionGroup var data: DataDirectoryOption
    @OptionGroup var output: FormatOption
    @OptionGroup var asOf: AsOfOptions

    @Argument(help: "Words or digits to look for.")
    var text: String = ""

    @Option(help: "Only this product type: 0 base unit, 1 case, 2 pallet.")
    var type: Int?

    @Option(help: "Only this manufacturer (exact, case-insensitive).")
    var manufacturer: String?

    @Option(help: "Results per page.")
    var limit: Int = 20

    @Option(help: "Page number, from 1.")
    var page: Int = 1

    @Flag(help: "Print the category tree with counts.")
    var categories = false

    func validate() throws {
        guard limit >= 1, limit <= 1_000 else { throw ValidationError("--limit must be between 1 and 1000") }
        guard page >= 1 else { throw ValidationError("--page must be at least 1") }
        if let type, !(0...2).contains(type) { throw ValidationError("--type must be 0, 1 or 2") }
    }

    func run() throws {
        let queries = try asOf.queries(data)
        let filter = ProductFilter(text: text, productType: type, manufacturer: manufacturer)
        if categories {
            let nodes = try queries.categories(filter)
            output.emit(nodes) {
                var table = TextTable(columns: ["path", "count"], rightAligned: [1])
                for node in nodes {
                    let label =
                        output.format == .csv ? node.path : String(repeating: "  ", count: node.depth) + node.name
                    table.append([label, String(node.count)])
                }
                return table
            }
            return
        }
        let result = try queries.search(filter, limit: limit, offset: (page - 1) * limit)
        output.emit(result) {
            var table = TextTable(
                columns: ["gtin", "name", "brand", "manufacturer", "productTypeLabel", "category"])
            for item in result.items {
                table.append([
                    item.gtin, item.name, item.brand, item.manufacturer, item.productTypeLabel, item.category,
                ])
            }
            if output.format == .table {
                let last = min(result.total, result.offset + result.items.count)
                if result.items.isEmpty, result.total > 0 {
                    let pages = (result.total + limit - 1) / limit
                    print("\(result.total) products match; page \(page) is empty (the last page is \(pages))")
                } else {
                    print(
                        "\(result.total) products match; showing \(result.items.isEmpty ? 0 : result.offset + 1)–\(last)"
                    )
                }
            }
            return table
        }
    }
}
