import HearthBase
import HearthHTTP
import Synchronization

/// Answers requests while the node starts (projects applied, keys being made; the store is
/// opened before the port is bound, so a database that fails fails before it): `/healthz`
/// says `starting` with 503 and everything else is 503 `UNAVAILABLE`. Once the application
/// is ready, every request goes to its router.
final class StartupResponder: HTTPResponder {
    private let router = Mutex<Router?>(nil)

    func becomeReady(with router: Router) {
        self.router.withLock { $0 = router }
    }

    func respond(to request: Request) -> Response {
        if let router = router.withLock({ $0 }) { return router.respond(to: request) }
        if request.path == "/healthz" || request.path == "/healthz/" {
            return .json(bytes: Array(#"{"ok":false,"status":"starting"}"#.utf8), status: .serviceUnavailable)
        }
        return GoogleAPIError.unavailable("The server is starting; try again shortly.").response()
    }
}
