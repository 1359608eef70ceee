import Mustache

/// The embedded templates, parsed once.
enum Templates {
    /// The library of every template, or why one did not parse (a defect a test catches).
    static let library: Result<MustacheLibrary, ReportError> = {
        var library = MustacheLibrary()
        for (name, text) in EmbeddedTemplates.files where name != "style" {
            do {
                try library.register(text, named: name)  // HTML escaping is the default
            } catch {
                return .failure(
                    ReportError(
                        code: "template",
                        message: "template \(name) does not parse: \(error) (fix Sources/Reports/Templates)",
                        status: 500))
            }
        }
        return .success(library)
    }()

    /// The stylesheet every page carries inline.
    static let stylesheet = EmbeddedTemplates.files["style"] ?? ""

    /// `template` rendered with `context`.
    /// - Throws: ``ReportError`` 500 when the template is missing or did not parse.
    static func render(_ template: String, _ context: [String: Any]) throws -> String {
        let library = try library.get()
        guard let html = library.render(context, withTemplate: template) else {
            throw ReportError(code: "template", message: "no template \(template)", status: 500)
        }
        return html
    }
}
