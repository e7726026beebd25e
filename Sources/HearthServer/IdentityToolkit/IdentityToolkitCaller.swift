import HearthCore
import HearthHTTP

/// Who makes an Identity Toolkit call: an app with the project's API key, or an admin with
/// an admin credential (`Authorization: Bearer …`). Many methods accept both, and what a
/// field means can depend on which (an admin may name any `localId`; an app only acts on the
/// user of its ID token).
struct IdentityToolkitCaller {
    let project: Project
    let isAdmin: Bool
}

extension HearthApplication {
    /// Identifies the caller of `request`.
    ///
    /// An admin credential is used whenever a `Bearer` authorization is present (a wrong one is
    /// a 401, a valid one of another project a 403, an address backing off after failures a
    /// 429). The project is the path's `{project}`,
    /// else the body's `targetProjectId`, else the API key's project, else the credential's own
    /// project. Without a credential the call needs the project's API key, and
    /// project-scoped paths (`/v1/projects/{p}/…`) and `targetProjectId` are refused.
    ///
    /// - Parameter adminOnly: refuse app callers (admin-only methods).
    func caller(of request: IdentityToolkitRequest, adminOnly: Bool = false) throws -> IdentityToolkitCaller {
        let pathProject = request.request.pathParameters["project"]
        if let authorization = request.bearerAuthorization {
            let project: Project
            if pathProject != nil {
                project = try projectOrNotFound(request.request)
            } else if let target = try request.string("targetProjectId") {
                guard let found = projects.project(target) else { throw GoogleAPIError.notFound("Project not found.") }
                project = found
            } else if request.apiKey != nil {
                project = try request.keyProject(in: projects)
            } else {
                let id: String
                do throws(AdminAuthenticationError) {
                    id = try adminCredentials.projectID(
                        authorization: authorization,
                        clientAddress: request.request.remoteAddress
                    )
                } catch {
                    throw Self.adminRefusal(error, projectID: nil)
                }
                guard let found = projects.project(id) else { throw GoogleAPIError.notFound("Project not found.") }
                project = found
            }
            do throws(AdminAuthenticationError) {
                try adminCredentials.authenticate(
                    authorization: authorization,
                    projectID: project.id,
                    clientAddress: request.request.remoteAddress
                )
            } catch {
                throw Self.adminRefusal(error, projectID: project.id)
            }
            return IdentityToolkitCaller(project: project, isAdmin: true)
        }
        if adminOnly || pathProject != nil {
            throw Self.adminRefusal(.missing, projectID: nil)
        }
        if request.has("targetProjectId") {
            throw AuthError(.insufficientPermission, "Only authenticated requests can specify target_project_id.")
        }
        return IdentityToolkitCaller(project: try request.keyProject(in: projects), isAdmin: false)
    }

    /// The answer to a refused admin credential: 401 without one or with a bad one, 403
    /// `INSUFFICIENT_PERMISSION` for a valid credential of another project.
    static func adminRefusal(_ error: AdminAuthenticationError, projectID: String?) -> GoogleAPIError {
        .adminRefusal(
            error,
            forbidden: GoogleAPIError(
                code: .forbidden,
                message: "INSUFFICIENT_PERMISSION : The credential does not grant access to project "
                    + "\(projectID ?? "").",
                status: .permissionDenied
            )
        )
    }
}
