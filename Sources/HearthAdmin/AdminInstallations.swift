import Foundation
import HearthWire

/// The project's installations, as an admin: deletion, and verification of the installation
/// auth tokens apps send to a backend.
public final class AdminInstallations: Sendable {
    private let connection: AdminConnection
    private let verifier: TokenVerifier

    init(connection: AdminConnection, verifier: TokenVerifier) {
        self.connection = connection
        self.verifier = verifier
    }

    /// Deletes the installation `fid`: its tokens stop working, and the app's next token call
    /// gets a new FID. Throws ``AdminError`` with code `NOT_FOUND` for an unknown FID and
    /// `ALREADY_EXISTS` for one already deleted.
    public func deleteInstallation(_ fid: String) async throws {
        let _: DeleteInstallationResponse = try await connection.call(
            "DELETE",
            InstallationsPath.adminDelete(project: connection.projectID, fid: fid)
        )
    }

    /// Verifies an installation auth token offline: signature (with the project's published
    /// installation keys) and expiry.
    ///
    /// - Throws: ``TokenVerificationError`` for a refused token (`.invalidSignature` for an
    ///   altered one, `.expired`, `.wrongProject`, `.wrongPurpose` for an ID token, …);
    ///   ``AdminError`` when the keys could not be fetched.
    public func verifyInstallationToken(_ token: String) async throws -> VerifiedInstallationToken {
        try await verifyInstallationToken(token, online: false)
    }

    /// Verifies an installation auth token; with `online`, also asks Hearth whether the
    /// installation still exists, so a token of a deleted installation is refused
    /// (`.installationDeleted`) however long it has left.
    public func verifyInstallationToken(_ token: String, online: Bool) async throws -> VerifiedInstallationToken {
        let verified = try VerifiedInstallationToken(verified: try await verifier.verify(token, as: .installationToken))
        guard online else { return verified }
        do {
            let _: VerifyInstallationTokenResponse = try await connection.call(
                "POST",
                AdminPath.verifyInstallationToken(project: connection.projectID),
                body: VerifyInstallationTokenRequest(token: token)
            )
        } catch let error as AdminError where error.code == "INSTALLATION_DELETED" {
            throw TokenVerificationError.installationDeleted
        }
        return verified
    }
}
