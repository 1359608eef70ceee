import AuditService
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WebPages

extension WebSite {
    /// The Reports module over this server's data, linking to this server's routes.
    var pages: ReportPages {
        let clock = server.configuration.clock
        let service = server.service
        return ReportPages(queries: service.queries, links: .server(basePath: ""), now: { clock.now() })
            .withDatasheets { gtin in await service.productDatasheet(gtin: gtin) }
    }

    /// Who is looking, for the page to decide what to show.
    static func viewer(_ visitor: Visitor) -> PageViewer {
        PageViewer(userID: visitor.user.username, roles: visitor.user.roles, csrfToken: visitor.session.csrfToken)
    }

    /// The query parameters of a page request. An inspector's requests are pinned to their
    /// own work: any `inspector` filter is replaced by their own id.
    static func parameters(query: [(String, String)], roles: Set<UserRole>, userID: String) -> [String: String] {
        var parameters: [String: String] = [:]
        for (key, value) in query { parameters[key] = value }
        if PermissionTable.isLimitedToOwnWork(roles) { parameters["inspector"] = userID }
        return parameters
    }

    /// `GET` of a page: its HTML, or with `?format=csv&table=NAME` one of its tables as CSV.
    func page(_ page: PageName, _ request: Request, _ context: ServerRequestContext, _ visitor: Visitor)
        async throws -> Response
    {
        let parameters = Self.parameters(
            query: request.uri.queryParameters.map { (String($0.key), String($0.value)) },
            roles: visitor.user.roles, userID: visitor.user.username)
        if page == .batch, let batch = parameters["batch"] { try await checkOwnBatch(batch, visitor) }
        let viewer = Self.viewer(visitor)
        if parameters["format"] == "csv" {
            let table = parameters["table"] ?? ""
            let csv = try await pages.renderCSV(page, table: table, parameters: parameters, viewer: viewer)
            var headers = WebSecurity.headers(contentType: "text/csv; charset=utf-8")
            let name = Self.fileNamePart(page.rawValue + (table.isEmpty ? "" : "-" + table))
            headers[.contentDisposition] = "attachment; filename=\"\(name).csv\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: csv)))
        }
        let rendered = try await pages.render(page, parameters: parameters, viewer: viewer)
        return WebSecurity.html(rendered.html, status: HTTPResponse.Status(code: rendered.status))
    }

    /// An inspector may open only their own batches (as `GET /v1/batches/{id}`); others any.
    func checkOwnBatch(_ batchID: String, _ visitor: Visitor) async throws {
        guard PermissionTable.isLimitedToOwnWork(visitor.user.roles) else { return }
        guard let batch = await server.service.deviceBatch(batchID) else {
            throw WebRefusal(.notFound, "There is no batch \(batchID).")
        }
        guard batch.inspectorID == visitor.user.username else {
            throw WebRefusal(.forbidden, "Batch \(batchID) belongs to another inspector; you can open only your own.")
        }
    }

    /// `POST /rules`: a datasheet file from the rules page's form (multipart, with the CSRF token),
    /// answered with the rules page of its findings, or with `format=csv` (the form's second button)
    /// every finding as a CSV download. Nothing is recorded in the log. The check and the page are
    /// made on the check workers (a full pool is a 503 page), never on an event loop.
    func checkDatasheet(_ request: Request, _ visitor: Visitor) async throws -> Response {
        guard WebSecurity.isSameOrigin(request) else {
            throw WebRefusal(.forbidden, "This form was sent from another site; nothing was done.")
        }
        guard let boundary = MultipartForm.boundary(contentType: request.headers[.contentType] ?? "") else {
            throw WebRefusal(.unsupportedMediaType, "Send the datasheet file with the form on the rules page.")
        }
        // The route's gate has already refused a larger body (413) before this handler.
        var request = request
        let body = try await request.collectBody(upTo: WebRoute.checkDatasheet.bodyLimit(server))
        let form: MultipartForm
        do {
            form = try MultipartForm(body: [UInt8](buffer: body), boundary: boundary)
        } catch {
            throw WebRefusal(.badRequest, "The form could not be read: \(error.reason).")
        }
        try checkPost(request, token: form.text(WebSecurity.csrfField), expected: visitor.session.csrfToken)
        // The form's one file field (the rules page names it `datasheets`).
        guard let file = form.parts.first(where: { $0.filename != nil }), !file.content.isEmpty else {
            throw WebRefusal(.badRequest, "Choose a datasheet file (JSON-LD, JSON Lines or CSV) to check.")
        }
        let limit = server.configuration.maxDatasheetBytes
        guard file.content.count <= limit else {
            throw WebRefusal(
                .contentTooLarge,
                "The file is larger than the \(limit >> 10) KiB datasheet limit; split it, or check it with `itemaudit check`."
            )
        }
        let rules = form.text("rules").map { $0.split(separator: ",").map(String.init) } ?? []
        let name = file.filename ?? "datasheet"
        guard ["jsonl", "json", "jsonld", "csv"].contains((name as NSString).pathExtension.lowercased()) else {
            throw WebRefusal(
                .badRequest, "The file must end in .jsonl, .json, .jsonld or .csv (the format is told by it).")
        }
        let content = file.content
        if form.text("format") == "csv" { return try await findingsCSV(content, fileName: name, rules: rules) }
        let pages = pages
        let viewer = Self.viewer(visitor)
        let rendered: RenderedPage
        do {
            rendered = try await server.checkWorkers.run {
                let checks = try RuleCheckInput.check(upload: content, fileName: name, rules: rules)
                return pages.renderRuleChecks(checks, viewer: viewer)
            }
        } catch let problem as Problem where problem.status == .serviceUnavailable {
            throw WebRefusal(
                .serviceUnavailable, "Other datasheet files are being checked; send yours again in a minute.")
        } catch let error as ReportError {
            throw WebRefusal(HTTPResponse.Status(code: error.status), error.message)
        }
        return WebSecurity.html(rendered.html, status: HTTPResponse.Status(code: rendered.status))
    }

    /// Letters, digits and '-' only (a download's file name).
    static func fileNamePart(_ text: String) -> String {
        String(text.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "-" })
    }
}
