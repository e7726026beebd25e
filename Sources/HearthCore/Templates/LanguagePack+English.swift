import HearthWire

extension LanguagePack {
    public static let english = LanguagePack(
        tag: "en",
        copies: [
            .action(.passwordReset): Copy(
                subject: "Reset your password for %APP_NAME%",
                greeting: "Hello %DISPLAY_NAME%,",
                paragraphs: ["Follow this link to reset your %APP_NAME% password for your %EMAIL% account."],
                button: "Reset password",
                notes: [
                    "The link expires in %EXPIRY%.",
                    "If you didn’t ask to reset your password, you can ignore this email.",
                ]
            ),
            .action(.verifyEmail): Copy(
                subject: "Verify your email for %APP_NAME%",
                greeting: "Hello %DISPLAY_NAME%,",
                paragraphs: ["Follow this link to verify your email address, %EMAIL%."],
                button: "Verify email",
                notes: [
                    "The link expires in %EXPIRY%.",
                    "If you didn’t ask to verify this address, you can ignore this email.",
                ]
            ),
            .action(.emailLink): Copy(
                subject: "Sign in to %APP_NAME%",
                greeting: "Hello %DISPLAY_NAME%,",
                paragraphs: [
                    "We received a request to sign in to %APP_NAME% using this email address, %EMAIL%. "
                        + "Follow this link to sign in."
                ],
                button: "Sign in to %APP_NAME%",
                notes: [
                    "The link expires in %EXPIRY%.",
                    "If you didn’t request this link, you can safely ignore this email.",
                ]
            ),
            .action(.verifyAndChangeEmail): Copy(
                subject: "Verify your new email for %APP_NAME%",
                greeting: "Hello %DISPLAY_NAME%,",
                paragraphs: ["Follow this link to change your %APP_NAME% sign-in email from %EMAIL% to %NEW_EMAIL%."],
                button: "Verify new email",
                notes: [
                    "The link expires in %EXPIRY%.",
                    "If you didn’t ask to change your email, you can ignore this email.",
                ]
            ),
            .action(.recoverEmail): Copy(
                subject: "Your sign-in email for %APP_NAME% was changed",
                greeting: "Hello %DISPLAY_NAME%,",
                paragraphs: [
                    "Your sign-in email for %APP_NAME% was changed to %NEW_EMAIL%.",
                    "If you didn’t ask to change your email, follow this link to reset your sign-in email.",
                ],
                button: "Undo email change",
                notes: ["The link expires in %EXPIRY%."]
            ),
            .test: Copy(
                subject: "Test message from %APP_NAME%",
                greeting: "Hello %DISPLAY_NAME%,",
                paragraphs: [
                    "This is a test message that Hearth sent to %EMAIL% to check the email settings of %APP_NAME%.",
                    "If you can read it, email delivery works.",
                ],
                button: nil,
                notes: []
            ),
        ],
        linkFallback: "If the button doesn’t work, copy this link into your browser:",
        signature: ["Thanks,", "The %APP_NAME% team"],
        duration: { value, unit in
            switch unit {
            case .minutes: value == 1 ? "1 minute" : "\(value) minutes"
            case .hours: value == 1 ? "1 hour" : "\(value) hours"
            case .days: value == 1 ? "1 day" : "\(value) days"
            }
        }
    )
}
