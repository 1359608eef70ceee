/// The login form.
struct LoginPage {
    var error: String?
    var csrfToken: String
    var next: String?
    var links: PageLinks

    func rendered() -> RenderedPage {
        let context: [String: Any] = [
            "stylesheet": Templates.stylesheet,
            "action": links.login,
            "csrf": csrfToken,
            "error": orFalse(error),
            "next": orFalse(next),
        ]
        do {
            return RenderedPage(
                title: "Log in", html: try Templates.render("login", context), status: error == nil ? 200 : 401)
        } catch {
            return RenderedPage(
                title: "Log in",
                html: "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Log in</title></head>"
                    + "<body><p>\(HTML.escape("\(error)"))</p></body></html>", status: 500)
        }
    }
}
