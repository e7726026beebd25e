import HearthHTTP

extension HearthApplication {
    /// `GET /healthz`: 200 once the node is ready (before that, `StartupResponder` answers 503).
    func addHealthRoutes(to router: inout Router) {
        let ready = Self.healthyResponse
        router.get("/healthz") { _ in ready }
    }

    /// The answer of a ready node; built once and reused by the server for every health check.
    static let healthyResponse = Response.json(bytes: Array(#"{"ok":true}"#.utf8)).fixed()
}
