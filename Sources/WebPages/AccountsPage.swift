import AuditService

/// The admin's page of accounts and device apps (`/admin/accounts`): lists them, and forms to add,
/// disable, change roles or password, and revoke. Every form posts to the same address with the
/// session's CSRF token; every value is escaped (``HTML/escape(_:)``); the page runs no script.
/// A new app's secret is drawn once, in the answer to the form that created it.
public struct AccountsPage: Sendable {
    /// The address of the page and of its forms' posts.
    public static let path = "/admin/accounts"

    /// Who is looking (their session's token goes into every form).
    public var viewer: PageViewer
    /// The accounts, in the order drawn.
    public var users: [IdentityState.User]
    /// The device apps, in the order drawn.
    public var apps: [IdentityState.App]
    /// What the last form did, for the person.
    public var notice: String?
    /// Why the last form was refused.
    public var error: String?
    /// A new app's id and secret, drawn this once.
    public var createdApp: (appID: String, secret: String)?

    /// A page from its parts; users and apps are sorted by name.
    public init(
        viewer: PageViewer, users: [IdentityState.User], apps: [IdentityState.App], notice: String? = nil,
        error: String? = nil, createdApp: (appID: String, secret: String)? = nil
    ) {
        self.viewer = viewer
        self.users = users.sorted { $0.username < $1.username }
        self.apps = apps.sorted { $0.appID < $1.appID }
        self.notice = notice
        self.error = error
        self.createdApp = createdApp
    }

    /// The whole document, with `status` (200, or the refusal's).
    public func rendered(status: Int = 200) -> RenderedPage {
        RenderedPage(title: "Accounts", html: html, status: status)
    }

    private var csrf: String { HTML.escape(viewer.csrfToken ?? "") }

    private func form(_ action: String, _ fields: String, button: String, label: String) -> String {
        "<form method=\"post\" action=\"\(Self.path)\" aria-label=\"\(HTML.escape(label))\">"
            + "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
            + "<input type=\"hidden\" name=\"action\" value=\"\(action)\">\(fields)"
            + " <button type=\"submit\">\(HTML.escape(button))</button></form>"
    }

    private func roleBoxes(_ prefix: String, checked: Set<UserRole>) -> String {
        UserRole.allCases.map { role in
            let id = HTML.escape("\(prefix)-\(role.name)")
            return "<label for=\"\(id)\"><input type=\"checkbox\" id=\"\(id)\" name=\"role-\(role.name)\" value=\"on\""
                + (checked.contains(role) ? " checked" : "") + "> \(role.name)</label>"
        }.joined(separator: " ")
    }

    private var html: String {
        var body = ""
        if let error { body += "<p class=\"error\" role=\"alert\">\(HTML.escape(error))</p>" }
        if let notice { body += "<p class=\"notice\" role=\"status\">\(HTML.escape(notice))</p>" }
        if let createdApp {
            body +=
                "<section aria-labelledby=\"secret\"><h2 id=\"secret\">The new app's secret (shown this once)</h2>"
                + "<dl class=\"facts\"><div><dt>app id</dt><dd><code>\(HTML.escape(createdApp.appID))</code></dd></div>"
                + "<div><dt>secret</dt><dd><code>\(HTML.escape(createdApp.secret))</code></dd></div></dl>"
                + "<p>Put both on the device now: the secret is not shown again.</p></section>"
        }
        body +=
            "<section aria-labelledby=\"users\"><h2 id=\"users\">Users</h2><table><thead><tr>"
            + "<th scope=\"col\">user</th><th scope=\"col\">name</th><th scope=\"col\">roles</th>"
            + "<th scope=\"col\">disabled</th><th scope=\"col\">change</th></tr></thead><tbody>"
        for user in users {
            let name = HTML.escape(user.username)
            var change = ""
            if !user.disabled {
                change += form(
                    "setRoles",
                    "<input type=\"hidden\" name=\"username\" value=\"\(name)\">"
                        + roleBoxes("roles-\(user.username)", checked: user.roles),
                    button: "Set roles", label: "Roles of \(user.username)")
                change += form(
                    "setPassword",
                    "<input type=\"hidden\" name=\"username\" value=\"\(name)\">"
                        + "<label for=\"pw-\(name)\">new password</label> <input type=\"password\" id=\"pw-\(name)\" "
                        + "name=\"password\" minlength=\"\(AuditService.minimumPasswordLength)\" autocomplete=\"new-password\" required>",
                    button: "Set password", label: "Password of \(user.username)")
                change += form(
                    "disableUser",
                    "<input type=\"hidden\" name=\"username\" value=\"\(name)\">"
                        + "<label for=\"why-\(name)\">reason</label> <input type=\"text\" id=\"why-\(name)\" name=\"reason\">",
                    button: "Disable", label: "Disable \(user.username)")
            }
            body +=
                "<tr><td>\(name)</td><td>\(HTML.escape(user.name))</td>"
                + "<td>\(HTML.escape(user.roleNames.joined(separator: ", ")))</td>"
                + "<td>\(user.disabled ? "yes" : "no")</td><td>\(change)</td></tr>"
        }
        body += "</tbody></table>"
        body +=
            "<h3>Add a user</h3>"
            + form(
                "addUser",
                "<label for=\"new-user\">login name</label> <input type=\"text\" id=\"new-user\" name=\"username\" "
                    + "pattern=\"[A-Za-z0-9._\\-]{1,64}\" required> "
                    + "<label for=\"new-name\">display name</label> <input type=\"text\" id=\"new-name\" name=\"name\"> "
                    + "<label for=\"new-pw\">password</label> <input type=\"password\" id=\"new-pw\" name=\"password\" "
                    + "minlength=\"\(AuditService.minimumPasswordLength)\" autocomplete=\"new-password\" required> "
                    + roleBoxes("new", checked: []),
                button: "Add user", label: "Add a user")
        body += "</section>"
        body +=
            "<section aria-labelledby=\"apps\"><h2 id=\"apps\">Device apps</h2><table><thead><tr>"
            + "<th scope=\"col\">app id</th><th scope=\"col\">name</th><th scope=\"col\">revoked</th>"
            + "<th scope=\"col\">change</th></tr></thead><tbody>"
        for app in apps {
            let id = HTML.escape(app.appID)
            let change =
                app.revoked
                ? ""
                : form(
                    "revokeApp",
                    "<input type=\"hidden\" name=\"appID\" value=\"\(id)\">"
                        + "<label for=\"rev-\(id)\">reason</label> <input type=\"text\" id=\"rev-\(id)\" name=\"reason\">",
                    button: "Revoke", label: "Revoke \(app.appID)")
            body +=
                "<tr><td>\(id)</td><td>\(HTML.escape(app.name))</td><td>\(app.revoked ? "yes" : "no")</td>"
                + "<td>\(change)</td></tr>"
        }
        body +=
            "</tbody></table><h3>Add an app</h3>"
            + form(
                "addApp",
                "<label for=\"app-name\">what it is</label> <input type=\"text\" id=\"app-name\" name=\"name\" required> "
                    + "<label for=\"app-id\">app id (optional)</label> <input type=\"text\" id=\"app-id\" name=\"appID\" "
                    + "pattern=\"[A-Za-z0-9._\\-]{1,64}\">",
                button: "Add app", label: "Add an app")
        body += "</section>"
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Accounts · ItemAudit</title>
            <style>\(Templates.stylesheet)</style>
            </head>
            <body>
            <header class="top"><nav aria-label="Pages"><ul><li><a href="/">Dashboard</a></li><li><a href="\(Self.path)" aria-current="page">Accounts</a></li></ul></nav>
            <form class="logout" method="post" action="/logout"><span class="who">\(HTML.escape(viewer.userID)) · \(HTML.escape(viewer.roleNames))</span><input type="hidden" name="csrf" value="\(csrf)"><button type="submit">Log out</button></form>
            </header>
            <main id="main">
            <h1>Accounts</h1>
            \(body)
            </main>
            </body>
            </html>
            """
    }
}
