import HearthHTTP
import HearthStore

extension HearthApplication {
    /// `GET /healthz`: 200 once the node is ready (before that, `StartupResponder` answers
    /// 503), and 503 `degraded` while its database does not answer, so that a load balancer
    /// sends requests to nodes that can serve them. The server answers the healthy case from
    /// its static table, switched off while the database does not answer (`followStoreHealth`).
    func addHealthRoutes(to router: inout Router) {
        let (ready, degraded) = (Self.healthyResponse, Self.degradedResponse)
        router.get("/healthz", on: .eventThread) { [store] _ in store.health == .answering ? ready : degraded }
    }

    /// Keeps the server's static `/healthz` answer on only while the database answers.
    func followStoreHealth(with server: HTTPServer) {
        let update = { @Sendable [store] in
            if store.health == .answering {
                server.enableStaticResponses()
            } else {
                server.disableStaticResponses()
            }
        }
        store.watchHealth(update)
        update()
    }

    /// The answer of a ready node; built once and reused by the server for every health check.
    static let healthyResponse = Response.json(bytes: Array(#"{"ok":true}"#.utf8)).fixed()

    static let degradedResponse = Response.json(
        bytes: Array(#"{"ok":false,"status":"degraded","reason":"the database is not answering"}"#.utf8),
        status: .serviceUnavailable
    ).fixed()
}
