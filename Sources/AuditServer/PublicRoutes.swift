/// The routes anyone may call without credentials, on purpose, listed here and nowhere else:
/// liveness, the API's contract and metrics carry no data; the login form, its post and the
/// browser's icon must be reachable before a session exists. Every other route needs a signed
/// request or a session (``Endpoint/authentication``, ``WebRoute/needsSession``), and a test sends
/// every routed path without credentials and expects a 2xx only from these.
public enum PublicRoutes {
    /// The API's public endpoints.
    public static let endpoints: Set<Endpoint> = [.health, .openAPI, .metrics]
    /// The browser's public routes.
    /// The inspector's app among them serves code, styles and icons only; its data comes from the
    /// `/v1` routes, with their sessions.
    public static let webRoutes: Set<WebRoute> = [.loginForm, .login, .favicon, .appShell, .appFile, .appAsset]
}
