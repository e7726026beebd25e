/// What the pages for paths under `/__/auth/` that serve nothing say.
struct ErrorPageText: Sendable {
    var notFoundHeading: String
    var notFoundMessage: String
    var methodHeading: String
    var methodMessage: String
    /// When the server cannot answer for now (its store failed).
    var failureHeading: String
    var failureMessage: String

    static let copy = PageCopy<ErrorPageText>([
        "en": ErrorPageText(
            notFoundHeading: "Page not found",
            notFoundMessage: "There is no page at this address. Check that you opened the whole link from your email.",
            methodHeading: "This page cannot be opened this way",
            methodMessage: "Open the link from your email again.",
            failureHeading: "Something went wrong",
            failureMessage:
                "The page cannot be shown right now. Wait a moment, then open the link from your email again."
        ),
        "it": ErrorPageText(
            notFoundHeading: "Pagina non trovata",
            notFoundMessage:
                "A questo indirizzo non c'è nessuna pagina. Controlla di aver aperto il link completo dell'email.",
            methodHeading: "Questa pagina non si può aprire così",
            methodMessage: "Apri di nuovo il link dell'email.",
            failureHeading: "Si è verificato un problema",
            failureMessage:
                "Al momento la pagina non si può mostrare. Attendi un momento, poi apri di nuovo il link dell'email."
        ),
        "fa": ErrorPageText(
            notFoundHeading: "صفحه پیدا نشد",
            notFoundMessage: "در این نشانی صفحه‌ای وجود ندارد. بررسی کنید که پیوند ایمیل را کامل باز کرده باشید.",
            methodHeading: "این صفحه را نمی‌توان این‌گونه باز کرد",
            methodMessage: "پیوند ایمیل را دوباره باز کنید.",
            failureHeading: "مشکلی پیش آمد",
            failureMessage: "اکنون نمی‌توان این صفحه را نشان داد. کمی صبر کنید، سپس پیوند ایمیل را دوباره باز کنید."
        ),
    ])
}
