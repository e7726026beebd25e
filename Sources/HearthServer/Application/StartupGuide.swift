import HearthBase
import HearthCore
import HearthHTTP

/// What a newcomer needs once the server is up, logged right after "hearth is ready": where
/// the emails go and how to read them, and how to point stock Firebase SDKs and REST clients
/// at this server. Pure: it only reads the options and the bound port.
enum StartupGuide {
    /// The lines, in order.
    static func lines(_ options: ServeOptions, port: Int) -> [String] {
        // A client on this machine reaches a server listening on every interface at loopback.
        let host =
            switch options.host {
            case "0.0.0.0", "": "127.0.0.1"
            case "::": "[::1]"
            default: options.host.contains(":") ? "[\(options.host)]" : options.host
            }
        let address = "\(host):\(port)"
        var storeFlags = ""
        if options.dataDirectory != ServeOptions().dataDirectory { storeFlags += " --data \(options.dataDirectory)" }
        if let database = options.databaseURL { storeFlags += " --database \(RedactedURL(database))" }

        var lines: [String] = []
        let project = options.runsDevelopmentSeed ? DevelopmentSeed.projectID : "PROJECT"
        let mailList = "hearth mail list --project \(project)\(storeFlags)"
        if let smtp = options.mail.smtpURL {
            lines.append(
                "emails: sent through \(RedactedURL(smtp)) for projects without their own SMTP server; "
                    + "\(mailList) shows the outbox"
            )
        } else {
            var line = "emails: no --smtp, so they stay in the outbox, unsent; read them with \(mailList)"
            if options.runsDevelopmentSeed {
                line += " or GET http://\(address)/emulator/v1/projects/\(DevelopmentSeed.projectID)/oobCodes"
                line += " (each code with its link)"
            }
            lines.append(line)
        }
        lines.append(
            "stock SDKs: set FIREBASE_AUTH_EMULATOR_HOST=\(address) (firebase-admin; client SDKs: "
                + "connectAuthEmulator(auth, \"http://\(address)\")); REST clients call Google's paths under "
                + "http://\(address)/identitytoolkit.googleapis.com/v1/, /securetoken.googleapis.com/v1/token, "
                + "/firebaseinstallations.googleapis.com/v1/ and /www.googleapis.com/"
        )
        return lines
    }

    /// What start-up warns about: the development seed reachable from other machines, where
    /// anyone could use its fixed admin credential and read its codes; and every address
    /// trusted as a proxy, where any client can name any address.
    static func warnings(_ options: ServeOptions) -> [String] {
        var warnings: [String] = []
        if options.runsDevelopmentSeed && options.listensBeyondThisMachine {
            warnings.append(
                "the development seed is listening on \(options.host): any machine that reaches it can call admin "
                    + "routes with \"Bearer owner\" and read every emailed code at /emulator/v1/projects/"
                    + "\(DevelopmentSeed.projectID)/oobCodes; serve real projects with --config and without --dev"
            )
        }
        if options.trustedProxies.trustsEveryAddress {
            warnings.append(
                "--trusted-proxies trusts every address: any client can name another address in X-Forwarded-For "
                    + "and so escape its per-address limits; name only your proxies' addresses"
            )
        }
        return warnings
    }
}
