/// What the link-domain landing page (`/__/auth/links`) says, in every page language.
struct LinkPageText: Sendable {
    var offerHeading: String
    var offerMessage: String
    var openLink: String
    var appStore: String
    var playStore: String
    /// `{version}`: the oldest Android app version that handles the link.
    var minimumVersion: String
    var refusedHeading: String
    var refusedMessage: String

    static let copy = PageCopy([
        "en": LinkPageText(
            offerHeading: "Open in the app",
            offerMessage:
                "If the app is installed, open this link on your phone to continue there, or continue in the browser.",
            openLink: "Continue",
            appStore: "Get the app on the App Store",
            playStore: "Get the app on Google Play",
            minimumVersion: "Version {version} or later of the Android app is needed.",
            refusedHeading: "This link cannot be opened",
            refusedMessage:
                "The link does not lead to a page of this app. Open the link from the email again, or ask for a new email."
        ),
        "it": LinkPageText(
            offerHeading: "Apri nell'app",
            offerMessage:
                "Se l'app è installata, apri questo link sul telefono per continuare lì, oppure continua nel browser.",
            openLink: "Continua",
            appStore: "Scarica l'app dall'App Store",
            playStore: "Scarica l'app da Google Play",
            minimumVersion: "Serve la versione {version} o successiva dell'app Android.",
            refusedHeading: "Questo link non può essere aperto",
            refusedMessage:
                "Il link non porta a una pagina di questa app. Apri di nuovo il link dall'email o chiedi una nuova email."
        ),
        "fa": LinkPageText(
            offerHeading: "باز کردن در برنامه",
            offerMessage:
                "اگر برنامه نصب است، این پیوند را در تلفن خود باز کنید تا آنجا ادامه دهید، یا در مرورگر ادامه دهید.",
            openLink: "ادامه",
            appStore: "دریافت برنامه از App Store",
            playStore: "دریافت برنامه از Google Play",
            minimumVersion: "نسخهٔ {version} یا بالاتر برنامهٔ اندروید لازم است.",
            refusedHeading: "این پیوند باز نمی‌شود",
            refusedMessage:
                "این پیوند به صفحه‌ای از این برنامه نمی‌رود. پیوند را دوباره از ایمیل باز کنید یا ایمیل تازه‌ای بخواهید."
        ),
    ])
}
