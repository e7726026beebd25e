import HearthBase
import HearthCore
import HearthHTTP
import HearthStore

extension HearthApplication {
    /// The project named by the `{project}` path parameter (ID or number), or a 404.
    func projectOrNotFound(_ request: Request) throws(GoogleAPIError) -> Project {
        guard let name = request.pathParameters["project"], let project = projects.project(name) else {
            throw GoogleAPIError.notFound("Project not found.")
        }
        return project
    }

    /// Refuses the request unless it carries an admin credential of `project`:
    /// 401 when it has none or a bad one, 403 when the credential belongs to another project,
    /// 429 while the caller's address backs off after failed attempts.
    func requireAdmin(_ request: Request, project: Project) throws(GoogleAPIError) {
        do throws(AdminAuthenticationError) {
            try adminCredentials.authenticate(
                authorization: request.headers["authorization"],
                projectID: project.id,
                clientAddress: request.remoteAddress
            )
        } catch {
            throw .adminRefusal(
                error,
                forbidden: GoogleAPIError(
                    code: .forbidden,
                    message: "The caller does not have permission",
                    status: .permissionDenied,
                    reason: "INSUFFICIENT_PERMISSION"
                )
            )
        }
    }

    /// An answer that waits for a durable write without holding the worker thread: `write`
    /// runs in the store's next group commit and `render` builds the answer from its
    /// after-commit answer once the commit is durable. Errors are answered as a synchronous
    /// handler's would be.
    func deferredWrite<Plan, Value, Answer>(
        _ write: StoreWrite<Plan, Value, Answer>,
        render: @escaping @Sendable (Answer) throws -> Response
    ) -> Response {
        .deferred { [self] promise in
            store.write(write) { result in
                do {
                    promise.succeed(try render(result.get()))
                } catch {
                    promise.succeed(self.errorResponse(error))
                }
            }
        }
    }

    /// The answer to an error outside the router's own handling (deferred answers).
    func errorResponse(_ error: any Error) -> Response {
        let answer = (error as? any HTTPResponseError)?.response()
        if let answer, answer.status != .internalServerError { return answer }
        log.error("deferred answer failed", ["error": .string(String(reflecting: error))])
        return answer ?? GoogleAPIError.internal().response()
    }
}

extension GoogleAPIError {
    /// The answer to a refused admin credential: 401 when it is missing or bad, `forbidden`,
    /// worded as the route family words it, when it belongs to another project, and 429 with
    /// `Retry-After` while the caller's address backs off.
    static func adminRefusal(
        _ error: AdminAuthenticationError,
        forbidden: @autoclosure () -> GoogleAPIError
    ) -> GoogleAPIError {
        switch error {
        case .missing:
            GoogleAPIError(
                code: .unauthorized,
                message: "Request is missing required authentication credential.",
                status: .unauthenticated
            )
        case .invalid:
            GoogleAPIError(
                code: .unauthorized,
                message: "Request had invalid authentication credentials.",
                status: .unauthenticated
            )
        case .forbidden:
            forbidden()
        case .throttled(let retryAfterSeconds):
            GoogleAPIError(
                .resourceExhausted,
                "Too many failed admin authentications from this address. Try again in \(retryAfterSeconds) s."
            )
            .retryingAfter(seconds: retryAfterSeconds)
        }
    }
}
