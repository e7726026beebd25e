import HearthCore
import HearthWire

extension ActionPageText {
    static let english = ActionPageText(
        modes: [
            .passwordReset: Mode(
                heading: "Reset your password",
                message: "Choose a new password for {email}.",
                button: "Save new password",
                doneHeading: "Your password has been changed",
                doneMessage: "You can now sign in to {app} with your new password."
            ),
            .verifyEmail: Mode(
                heading: "Verify your email address",
                message: "Confirm that {email} is your email address for {app}.",
                button: "Verify my email address",
                doneHeading: "Your email address is verified",
                doneMessage: "{email} is now verified for {app}."
            ),
            .emailLink: Mode(
                heading: "Sign in to {app}",
                message: "You asked to sign in to {app} as {email}. Continue to finish signing in.",
                button: "Continue signing in",
                doneHeading: "Signing you in",
                doneMessage: "{app} finishes signing you in."
            ),
            .verifyAndChangeEmail: Mode(
                heading: "Change your email address",
                message:
                    "Confirm that you want to change the email address of your {app} account from {email} to {newEmail}.",
                button: "Change my email address",
                doneHeading: "Your email address has been changed",
                doneMessage: "From now on, sign in to {app} with {newEmail}."
            ),
            .recoverEmail: Mode(
                heading: "Restore your email address",
                message: "The email address of your {app} account was changed to {newEmail}. "
                    + "If you did not ask for this, restore {email}.",
                button: "Restore my email address",
                doneHeading: "Your email address has been restored",
                doneMessage: "Your account uses {email} again. "
                    + "If you did not ask for the change, reset your password to keep your account safe."
            ),
        ],
        newPasswordLabel: "New password",
        confirmPasswordLabel: "Type the new password again",
        policyHeading: "Your new password must",
        minimumCharacters: "be at least {count} characters long",
        maximumBytes: "be no longer than {count} bytes",
        passwordsDiffer: "The two passwords are not the same. Type your new password in both fields again.",
        weakPassword: "This password does not meet the requirements below. Choose another one.",
        continueLabel: "Continue",
        closeHint: "You can close this page.",
        refusals: [
            .expired: Refusal(
                heading: "This link has expired",
                message:
                    "Links in these emails work for a limited time only. Go back to the app and ask for a new email."
            ),
            .used: Refusal(
                heading: "This link has already been used",
                message:
                    "Each link works once. If you still need to do this, go back to the app and ask for a new email."
            ),
            .invalid: Refusal(
                heading: "This link is not valid",
                message: "It may be incomplete, or it is no longer valid because the account has changed. "
                    + "Open the link in your most recent email, or ask for a new one."
            ),
            .mismatch: Refusal(
                heading: "This link does not match",
                message: "The link was changed after it was sent. Open it exactly as it appears in your email."
            ),
            .missing: Refusal(
                heading: "This link is incomplete",
                message:
                    "Part of the link is missing. Open the link from your email again; if you copied it, copy all of it."
            ),
            .csrf: Refusal(
                heading: "Please reload the link",
                message: "This form is out of date or was not sent from this page. "
                    + "Open the link from your email again and try once more."
            ),
            .unauthorizedContinueURL: Refusal(
                heading: "Cannot continue to the app",
                message: "The address this link should continue to is no longer allowed. "
                    + "Go back to the app and ask for a new email."
            ),
            .noContinueURL: Refusal(
                heading: "Open this link in the app",
                message: "This sign-in link can only be finished in the app that sent it. "
                    + "Open the email on the device where you use the app, and open the link there."
            ),
        ]
    )
}
