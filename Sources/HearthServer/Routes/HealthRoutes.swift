import HearthHTTP

extension HearthApplication {
    /// `GET /healthz`: 200 once the node is ready (before that, `StartupResponder` answers 503).
    func addHealthRoutes(to router: inout Router) {
        // Built once and reused by the server for every answer: health checks run often.
        let ready = Response.json(bytes: Array(#"{"ok":true}"#.utf8)).fixed()
        router.get("/healthz") { _ in ready }
    }
}
