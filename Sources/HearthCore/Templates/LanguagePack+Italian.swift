import HearthWire

extension LanguagePack {
    public static let italian = LanguagePack(
        tag: "it",
        copies: [
            .action(.passwordReset): Copy(
                subject: "Reimposta la password di %APP_NAME%",
                greeting: "Ciao %DISPLAY_NAME%,",
                paragraphs: ["Segui questo link per reimpostare la password di %APP_NAME% per l’account %EMAIL%."],
                button: "Reimposta la password",
                notes: [
                    "Il link scade tra %EXPIRY%.",
                    "Se non hai chiesto di reimpostare la password, puoi ignorare questa email.",
                ]
            ),
            .action(.verifyEmail): Copy(
                subject: "Verifica il tuo indirizzo email per %APP_NAME%",
                greeting: "Ciao %DISPLAY_NAME%,",
                paragraphs: ["Segui questo link per verificare il tuo indirizzo email, %EMAIL%."],
                button: "Verifica l’indirizzo",
                notes: [
                    "Il link scade tra %EXPIRY%.",
                    "Se non hai chiesto di verificare questo indirizzo, puoi ignorare questa email.",
                ]
            ),
            .action(.emailLink): Copy(
                subject: "Accedi a %APP_NAME%",
                greeting: "Ciao %DISPLAY_NAME%,",
                paragraphs: [
                    "Abbiamo ricevuto una richiesta di accesso a %APP_NAME% con questo indirizzo email, %EMAIL%. "
                        + "Segui questo link per accedere."
                ],
                button: "Accedi a %APP_NAME%",
                notes: [
                    "Il link scade tra %EXPIRY%.",
                    "Se non hai richiesto questo link, puoi ignorare questa email.",
                ]
            ),
            .action(.verifyAndChangeEmail): Copy(
                subject: "Verifica il nuovo indirizzo email per %APP_NAME%",
                greeting: "Ciao %DISPLAY_NAME%,",
                paragraphs: [
                    "Segui questo link per cambiare l’indirizzo email con cui accedi a %APP_NAME% da %EMAIL% a %NEW_EMAIL%."
                ],
                button: "Verifica il nuovo indirizzo",
                notes: [
                    "Il link scade tra %EXPIRY%.",
                    "Se non hai chiesto di cambiare indirizzo email, puoi ignorare questa email.",
                ]
            ),
            .action(.recoverEmail): Copy(
                subject: "L’indirizzo email di accesso a %APP_NAME% è stato cambiato",
                greeting: "Ciao %DISPLAY_NAME%,",
                paragraphs: [
                    "L’indirizzo email con cui accedi a %APP_NAME% è stato cambiato in %NEW_EMAIL%.",
                    "Se non hai chiesto tu questa modifica, segui questo link per ripristinare il tuo indirizzo di accesso.",
                ],
                button: "Annulla la modifica",
                notes: ["Il link scade tra %EXPIRY%."]
            ),
            .test: Copy(
                subject: "Messaggio di prova da %APP_NAME%",
                greeting: "Ciao %DISPLAY_NAME%,",
                paragraphs: [
                    "Questo è un messaggio di prova che Hearth ha inviato a %EMAIL% per controllare le impostazioni "
                        + "email di %APP_NAME%.",
                    "Se riesci a leggerlo, l’invio delle email funziona.",
                ],
                button: nil,
                notes: []
            ),
        ],
        linkFallback: "Se il pulsante non funziona, copia questo link nel browser:",
        signature: ["Grazie,", "Il team di %APP_NAME%"],
        duration: { value, unit in
            switch unit {
            case .minutes: value == 1 ? "1 minuto" : "\(value) minuti"
            case .hours: value == 1 ? "1 ora" : "\(value) ore"
            case .days: value == 1 ? "1 giorno" : "\(value) giorni"
            }
        }
    )
}
