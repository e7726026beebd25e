public import HearthBase
public import HearthCore
import HearthCrypto
import HearthHTTP
public import HearthMail
public import HearthStore
import Synchronization

/// Everything one running Hearth node is made of: the store, the domain services over it,
/// and the settings that shape links. Routes receive it and stay thin.
public final class HearthApplication: Sendable {
    public let store: any Store
    public let clock: any Clock
    public let log: Log
    public let projects: ProjectDirectory
    public let keys: KeyRing
    public let adminCredentials: AdminCredentials
    /// Users, passwords and sessions (Identity Toolkit and Secure Token).
    public let accounts: AccountService
    /// Installations: registry, webhook subscriptions, sweeper and webhook sender.
    let installations: InstallationService
    /// The base URL of links Hearth makes (`<publicURL>/__/auth/action`), without a slash.
    public let publicURL: String
    /// The seed project's ID when the development seed runs.
    public let developmentProjectID: String?
    /// Email: templates, the outbox and its delivery workers.
    public let mailer: Mailer
    /// Codes and links of email actions (password reset, verification, sign-in links, ...).
    public let emailActions: EmailActionService
    /// The hosted action page's form tokens (keyed by the master key).
    let formTokens: ActionFormToken
    /// The right to do the work one node at a time does (see `startBackgroundWork`).
    public let singletonLease: LeaseKeeper
    /// Background workers started by `startBackgroundWork`.
    let background = Mutex<[PeriodicWorker]>([])

    public init(
        store: any Store,
        clock: any Clock,
        log: Log,
        masterKey: MasterKey,
        publicURL: String,
        developmentProjectID: String?,
        mailDelivery: MailDeliveryConfiguration = MailDeliveryConfiguration(),
        installationSettings: InstallationServiceSettings = InstallationServiceSettings(),
        leaseMilliseconds: Int64 = 30_000
    ) throws {
        self.store = store
        self.clock = clock
        self.log = log
        self.publicURL = publicURL
        self.developmentProjectID = developmentProjectID
        projects = try ProjectDirectory(store: store, clock: clock)
        keys = KeyRing(store: store, clock: clock, masterKey: masterKey)
        formTokens = ActionFormToken(masterKey: masterKey)
        adminCredentials = AdminCredentials(store: store, clock: clock, developmentProjectID: developmentProjectID)
        accounts = AccountService(store: store, clock: clock, keys: keys)
        // The development project's mail is kept for its developer to read, wherever the
        // delivery settings came from.
        var mailDelivery = mailDelivery
        if mailDelivery.keepBodiesOfProject == nil { mailDelivery.keepBodiesOfProject = developmentProjectID }
        let mailSeal = MailSeal(masterKey: masterKey)
        try mailSeal.sealMessagesStoredInTheClear(in: store)
        mailer = Mailer(
            store: store,
            clock: clock,
            log: log,
            projects: projects,
            seal: mailSeal,
            configuration: mailDelivery
        )
        emailActions = EmailActionService(
            store: store,
            clock: clock,
            accounts: accounts,
            composer: mailer.composer,
            publicURL: publicURL,
            developmentProjectID: developmentProjectID,
            mailSeal: mailSeal,
            dispatcher: mailer
        )
        installations = InstallationService(
            store: store,
            clock: clock,
            log: log,
            projects: projects,
            keys: keys,
            masterKey: masterKey,
            settings: installationSettings
        )
        // Real time, not `clock`: nodes whose test clocks were moved apart must still agree
        // on when a lease lapses.
        singletonLease = LeaseKeeper(
            name: "singleton-work",
            store: store,
            log: log,
            durationMilliseconds: leaseMilliseconds,
            clock: SystemClock()
        )
    }

    /// Makes every project's signing keys now, so the first request does not pay for an RSA
    /// key generation, and opens the stored ones, so a master key they were not sealed with
    /// stops the start instead of every token request.
    public func prepareSigningKeys() throws {
        for project in projects.all {
            for purpose in KeyRing.Purpose.allCases {
                do {
                    _ = try keys.activeKey(projectID: project.id, purpose: purpose)
                } catch let error as CryptoError where error.kind == .authenticationFailure {
                    throw UsageError(
                        "hearth serve: the master key does not open the stored signing keys of project \(project.id): "
                            + "--master-key-file, HEARTH_MASTER_KEY or master.key does not hold the key this database was made with"
                    )
                }
            }
        }
        try keys.reloadPublishedKeys()
    }

    /// The router with every route of the product.
    func makeRouter(handlerPool: HandlerPool? = nil) -> Router {
        var router = Router(aliasPrefixes: Router.firebaseAliasPrefixes, log: log, handlerPool: handlerPool)
        addHealthRoutes(to: &router)
        addAPIDescriptionRoutes(to: &router)
        addKeyRoutes(to: &router)
        addIdentityToolkitRoutes(to: &router)
        addMailRoutes(to: &router)
        addInstallationRoutes(to: &router)
        addAppLinkRoutes(to: &router)
        addPageRoutes(to: &router)
        return router
    }
}
