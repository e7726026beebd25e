import HearthWire

extension LanguagePack {
    /// Persian (Farsi), written right to left; numbers in Persian digits.
    public static let persian = LanguagePack(
        tag: "fa",
        copies: [
            .action(.passwordReset): Copy(
                subject: "بازنشانی گذرواژهٔ %APP_NAME%",
                greeting: "سلام %DISPLAY_NAME%،",
                paragraphs: ["برای بازنشانی گذرواژهٔ %APP_NAME% برای حساب %EMAIL% روی این پیوند بزنید."],
                button: "بازنشانی گذرواژه",
                notes: [
                    "این پیوند پس از %EXPIRY% منقضی می‌شود.",
                    "اگر درخواست بازنشانی گذرواژه نداده‌اید، می‌توانید این ایمیل را نادیده بگیرید.",
                ]
            ),
            .action(.verifyEmail): Copy(
                subject: "تأیید نشانی ایمیل برای %APP_NAME%",
                greeting: "سلام %DISPLAY_NAME%،",
                paragraphs: ["برای تأیید نشانی ایمیل خود، %EMAIL%، روی این پیوند بزنید."],
                button: "تأیید ایمیل",
                notes: [
                    "این پیوند پس از %EXPIRY% منقضی می‌شود.",
                    "اگر درخواست تأیید این نشانی را نداده‌اید، می‌توانید این ایمیل را نادیده بگیرید.",
                ]
            ),
            .action(.emailLink): Copy(
                subject: "ورود به %APP_NAME%",
                greeting: "سلام %DISPLAY_NAME%،",
                paragraphs: [
                    "درخواستی برای ورود به %APP_NAME% با این نشانی ایمیل، %EMAIL%، دریافت کردیم. "
                        + "برای ورود روی این پیوند بزنید."
                ],
                button: "ورود به %APP_NAME%",
                notes: [
                    "این پیوند پس از %EXPIRY% منقضی می‌شود.",
                    "اگر این پیوند را درخواست نکرده‌اید، می‌توانید این ایمیل را نادیده بگیرید.",
                ]
            ),
            .action(.verifyAndChangeEmail): Copy(
                subject: "تأیید نشانی ایمیل تازه برای %APP_NAME%",
                greeting: "سلام %DISPLAY_NAME%،",
                paragraphs: [
                    "برای تغییر نشانی ایمیل ورود به %APP_NAME% از %EMAIL% به %NEW_EMAIL% روی این پیوند بزنید."
                ],
                button: "تأیید نشانی تازه",
                notes: [
                    "این پیوند پس از %EXPIRY% منقضی می‌شود.",
                    "اگر درخواست تغییر نشانی ایمیل نداده‌اید، می‌توانید این ایمیل را نادیده بگیرید.",
                ]
            ),
            .action(.recoverEmail): Copy(
                subject: "نشانی ایمیل ورود شما به %APP_NAME% تغییر کرد",
                greeting: "سلام %DISPLAY_NAME%،",
                paragraphs: [
                    "نشانی ایمیل ورود شما به %APP_NAME% به %NEW_EMAIL% تغییر کرد.",
                    "اگر این تغییر را درخواست نکرده‌اید، برای بازگرداندن نشانی ایمیل ورود خود روی این پیوند بزنید.",
                ],
                button: "لغو تغییر ایمیل",
                notes: ["این پیوند پس از %EXPIRY% منقضی می‌شود."]
            ),
            .test: Copy(
                subject: "پیام آزمایشی از %APP_NAME%",
                greeting: "سلام %DISPLAY_NAME%،",
                paragraphs: [
                    "این یک پیام آزمایشی است که Hearth برای بررسی تنظیمات ایمیل %APP_NAME% به %EMAIL% فرستاده است.",
                    "اگر این پیام را می‌خوانید، ارسال ایمیل درست کار می‌کند.",
                ],
                button: nil,
                notes: []
            ),
        ],
        linkFallback: "اگر دکمه کار نکرد، این پیوند را در مرورگر خود باز کنید:",
        signature: ["سپاس،", "تیم %APP_NAME%"],
        duration: { value, unit in
            let number = persianDigits(value)
            return switch unit {
            case .minutes: "\(number) دقیقه"
            case .hours: "\(number) ساعت"
            case .days: "\(number) روز"
            }
        }
    )

    /// `123` in Persian digits: `۱۲۳`.
    public static func persianDigits(_ value: Int64) -> String {
        String(
            String.UnicodeScalarView(
                String(value).unicodeScalars.map { scalar in
                    guard let digit = scalar.properties.numericType.flatMap({ _ in scalar.properties.numericValue })
                    else { return scalar }
                    return Unicode.Scalar(0x06F0 + UInt32(digit))!
                }
            )
        )
    }
}
