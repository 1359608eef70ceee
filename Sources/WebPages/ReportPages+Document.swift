import AuditService

extension ReportPages {
    /// The pages in the navigation bar: in static files only those `itemaudit report` writes.
    static func navigation(static isStatic: Bool) -> [PageName] {
        PageName.allCases.filter { isStatic ? $0.listing == .everywhere : $0.listing != .linkedOnly }
    }

    /// `content` as a whole HTML document for `viewer`.
    func document(_ content: PageContent, page: PageName, viewer: PageViewer, error: String? = nil, status: Int = 200)
        -> RenderedPage
    {
        var content = content
        for index in content.sections.indices {
            guard var table = content.sections[index].table, table.csvLink.isEmpty else { continue }
            table.csvLink = links.csv(page, table: table.name, content.csvParameters)
            content.sections[index].table = table
        }
        let context = Self.context(content, page: page, viewer: viewer, links: links, error: error)
        do {
            return RenderedPage(title: content.title, html: try Templates.render("layout", context), status: status)
        } catch {
            // Only a template that does not parse lands here; a test renders every page.
            return RenderedPage(
                title: content.title,
                html: "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Error</title></head>"
                    + "<body><p>\(HTML.escape("\(error)"))</p></body></html>", status: 500)
        }
    }

    /// A page saying what was wrong with the request, with its status.
    func errorPage(_ error: ReportError, page: PageName, viewer: PageViewer) -> RenderedPage {
        var content = PageContent(page: page, title: page.title)
        content.filters = nil
        return document(content, page: page, viewer: viewer, error: error.message, status: error.status)
    }

    static func context(_ content: PageContent, page: PageName, viewer: PageViewer, links: PageLinks, error: String?)
        -> [String: Any]
    {
        var context: [String: Any] = [
            "title": content.title,
            "stylesheet": Templates.stylesheet,
            "error": orFalse(error),
            "hasFacts": !content.facts.isEmpty,
            "facts": content.facts.map { ["label": $0.label, "value": $0.value, "link": orFalse($0.link)] },
            "nav": navigation(static: links.isStatic).map { name -> [String: Any] in
                ["href": links.page(name), "label": name.title, "current": name == page]
            },
            "sections": content.sections.enumerated().map { index, section in
                sectionContext(section, index: index)
            },
            "footer": content.footer,
            "filters": false,
            "upload": false,
            "session": false,
        ]
        if let filters = content.filters, !links.isStatic {
            context["filters"] = [
                "action": filters.action,
                "fields": filters.fields.map { field -> [String: Any] in
                    [
                        "name": field.name, "label": field.label, "value": field.value, "type": field.type,
                        "hint": orFalse(field.hint), "select": !field.options.isEmpty,
                        "options": field.options.map { option -> [String: Any] in
                            ["value": option.value, "label": option.label, "selected": option.value == field.value]
                        },
                    ]
                },
            ]
        }
        if let csrf = viewer.csrfToken {
            context["session"] = [
                "action": links.logout, "csrf": csrf, "userID": viewer.userID, "role": viewer.roleNames,
            ]
            if let upload = content.upload {
                context["upload"] = [
                    "action": upload.action, "csrf": csrf, "fieldName": upload.fieldName, "label": upload.label,
                ]
            }
        }
        return context
    }

    static func sectionContext(_ section: PageContent.Section, index: Int) -> [String: Any] {
        [
            "id": "s\(index)",
            "heading": section.heading,
            "note": orFalse(section.note),
            "chart": section.chart.map { ["svg": $0.svg, "summary": $0.summary] } ?? false,
            "table": section.table?.context() ?? false,
            "hasPhotos": !section.photos.isEmpty,
            "photos": section.photos.map { photo -> [String: Any] in
                [
                    "src": photo.source, "alt": photo.alt, "caption": photo.caption, "width": Thumbnail.width,
                    "height": Thumbnail.height,
                ]
            },
            "hasPager": !section.pager.isEmpty,
            "pager": section.pager.map { ["label": $0.label, "value": $0.value, "link": orFalse($0.link)] },
        ]
    }
}
