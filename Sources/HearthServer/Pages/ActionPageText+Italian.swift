import HearthCore
import HearthWire

extension ActionPageText {
    static let italian = ActionPageText(
        modes: [
            .passwordReset: Mode(
                heading: "Reimposta la password",
                message: "Scegli una nuova password per {email}.",
                button: "Salva la nuova password",
                doneHeading: "La password è stata cambiata",
                doneMessage: "Ora puoi accedere a {app} con la nuova password."
            ),
            .verifyEmail: Mode(
                heading: "Verifica il tuo indirizzo email",
                message: "Conferma che {email} è il tuo indirizzo email per {app}.",
                button: "Verifica il mio indirizzo email",
                doneHeading: "Il tuo indirizzo email è verificato",
                doneMessage: "{email} ora è verificato per {app}."
            ),
            .emailLink: Mode(
                heading: "Accedi a {app}",
                message: "Hai chiesto di accedere a {app} come {email}. Continua per completare l'accesso.",
                button: "Continua l'accesso",
                doneHeading: "Accesso in corso",
                doneMessage: "{app} completa l'accesso."
            ),
            .verifyAndChangeEmail: Mode(
                heading: "Cambia il tuo indirizzo email",
                message: "Conferma di voler cambiare l'indirizzo email del tuo account {app} da {email} a {newEmail}.",
                button: "Cambia il mio indirizzo email",
                doneHeading: "Il tuo indirizzo email è stato cambiato",
                doneMessage: "D'ora in poi accedi a {app} con {newEmail}."
            ),
            .recoverEmail: Mode(
                heading: "Ripristina il tuo indirizzo email",
                message: "L'indirizzo email del tuo account {app} è stato cambiato in {newEmail}. "
                    + "Se non l'hai chiesto tu, ripristina {email}.",
                button: "Ripristina il mio indirizzo email",
                doneHeading: "Il tuo indirizzo email è stato ripristinato",
                doneMessage: "Il tuo account usa di nuovo {email}. "
                    + "Se non hai chiesto tu il cambio, reimposta la password per proteggere l'account."
            ),
        ],
        newPasswordLabel: "Nuova password",
        confirmPasswordLabel: "Scrivi di nuovo la nuova password",
        policyHeading: "La nuova password deve",
        minimumCharacters: "avere almeno {count} caratteri",
        maximumBytes: "non superare {count} byte",
        passwordsDiffer: "Le due password non coincidono. Scrivi di nuovo la nuova password in entrambi i campi.",
        weakPassword: "Questa password non rispetta i requisiti qui sotto. Scegline un'altra.",
        continueLabel: "Continua",
        closeHint: "Puoi chiudere questa pagina.",
        refusals: [
            .expired: Refusal(
                heading: "Questo link è scaduto",
                message: "I link di queste email funzionano solo per un tempo limitato. "
                    + "Torna all'app e chiedi una nuova email."
            ),
            .used: Refusal(
                heading: "Questo link è già stato usato",
                message:
                    "Ogni link funziona una sola volta. Se devi ancora farlo, torna all'app e chiedi una nuova email."
            ),
            .invalid: Refusal(
                heading: "Questo link non è valido",
                message: "Potrebbe essere incompleto, oppure non è più valido perché l'account è cambiato. "
                    + "Apri il link dell'email più recente o chiedine uno nuovo."
            ),
            .mismatch: Refusal(
                heading: "Questo link non corrisponde",
                message: "Il link è stato modificato dopo l'invio. Aprilo esattamente come appare nell'email."
            ),
            .missing: Refusal(
                heading: "Questo link è incompleto",
                message: "Manca una parte del link. Apri di nuovo il link dell'email; se l'hai copiato, copialo tutto."
            ),
            .csrf: Refusal(
                heading: "Ricarica il link",
                message: "Questo modulo è scaduto o non è stato inviato da questa pagina. "
                    + "Apri di nuovo il link dell'email e riprova."
            ),
            .unauthorizedContinueURL: Refusal(
                heading: "Impossibile tornare all'app",
                message: "L'indirizzo a cui questo link dovrebbe portarti non è più consentito. "
                    + "Torna all'app e chiedi una nuova email."
            ),
            .noContinueURL: Refusal(
                heading: "Apri questo link nell'app",
                message: "Questo link di accesso si può completare solo nell'app che l'ha inviato. "
                    + "Apri l'email sul dispositivo in cui usi l'app e apri lì il link."
            ),
        ]
    )
}
