import AuditService
import HTTPTypes
import WebPages

/// Every browser route: the HTML pages, their CSV tables, the login form and the photo thumbnails.
///
/// These are not in `Schemas/openapi.yaml`: that document is the contract of the signed API for
/// devices and scripts, which a browser cannot call (it cannot sign). A browser route is
/// authenticated by the session cookie instead, and every form post carries a CSRF token. The
/// permission table decides who may open each (``PermissionTable/roles(for:)-(WebRoute)``), and the
/// OpenAPI agreement test checks that the two route lists never overlap.
public enum WebRoute: Hashable, Sendable, CaseIterable {
    /// `GET /`: the dashboard (also at `/dashboard`).
    case home
    /// `GET /login`: the login form.
    case loginForm
    /// `POST /login`: the login form's post.
    case login
    /// `POST /logout`: ends the cookie session.
    case logout
    /// `GET` of a page, its filters in the query (`?gtin=`, `?batch=`, `?from=`, …), with
    /// `&format=csv&table=NAME` for one of its tables as CSV.
    case page(PageName)
    /// `POST /rules`: a datasheet file to check, answered with the rules page of its findings.
    case checkDatasheet
    /// `GET /photos/{sha256}`: a stored inspection photo, for the product page's thumbnails.
    case photo
    /// `GET /favicon.ico`: the small icon browsers ask for on their own (public).
    case favicon
    /// `GET /admin/accounts`: the admin's page of users and device apps.
    case accounts
    /// `POST /admin/accounts`: one of that page's forms (add, roles, password, disable, revoke).
    case changeAccounts
    /// `GET /app/`: the inspector's app, its entry page (public: the app signs in inside itself).
    case appShell
    /// `GET /app/{name}`: the app's unversioned files, its service worker and manifest (public).
    case appFile
    /// `GET /app/{name}/{file}`, `{name}` the version of the build that serves them: the app's
    /// scripts, styles and icons, which a browser may keep for good (public). (The router needs
    /// one parameter name per level, hence `{name}` on both app routes.)
    case appAsset

    public static var allCases: [WebRoute] {
        [.home, .loginForm, .login, .logout] + PageName.allCases.map { .page($0) } + [
            .checkDatasheet, .photo, .favicon,
        ] + [.accounts, .changeAccounts] + [.appShell, .appFile, .appAsset]
    }

    /// The HTTP method.
    public var method: HTTPRequest.Method {
        switch self {
        case .login, .logout, .checkDatasheet: .post
        case .changeAccounts: .post
        default: .get
        }
    }

    /// The path, with `{name}` for a parameter.
    public var path: String {
        switch self {
        case .home: "/"
        case .loginForm, .login: "/login"
        case .logout: "/logout"
        case .checkDatasheet: "/rules"
        case .photo: "/photos/{sha256}"
        case .favicon: "/favicon.ico"
        case .page(let page): Self.path(of: page)
        case .accounts, .changeAccounts: AccountsPage.path
        case .appShell: "/app"
        case .appFile: "/app/{name}"
        case .appAsset: "/app/{name}/{file}"
        }
    }

    /// The path of each page: `/` and its name, as the Reports module links them (`/product?gtin=…`).
    public static func path(of page: PageName) -> String { "/" + page.rawValue }

    /// Whether the route needs a logged-in session (the login form, its post and the icon do not).
    public var needsSession: Bool { !PublicRoutes.webRoutes.contains(self) }

    /// The largest body the route reads (bytes): a form, a datasheet file, nothing for a page.
    func bodyLimit(_ server: ServerState) -> Int {
        switch self {
        case .login, .logout: WebSite.formLimit
        // The file and the multipart form around it (boundaries, the token, the rule sets).
        case .checkDatasheet: server.configuration.maxDatasheetBytes + (64 << 10)
        case .home, .loginForm, .page, .photo, .favicon: 0
        case .accounts: 0
        case .changeAccounts: WebSite.formLimit
        case .appShell, .appFile, .appAsset: 0
        }
    }

    /// A short label for logs and metrics (`page-dashboard`, `login`, …).
    public var label: String {
        switch self {
        case .home: "home"
        case .loginForm: "login-form"
        case .login: "login"
        case .logout: "logout"
        case .page(let page): "page-\(page.rawValue)"
        case .checkDatasheet: "check-datasheet"
        case .photo: "photo"
        case .favicon: "favicon"
        case .accounts: "accounts"
        case .changeAccounts: "change-accounts"
        case .appShell: "app-shell"
        case .appFile: "app-file"
        case .appAsset: "app-asset"
        }
    }
}
