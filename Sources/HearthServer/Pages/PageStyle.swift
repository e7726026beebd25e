import HearthCore
import HearthCrypto

/// The hosted pages' look: one stylesheet inlined in every page and allowed by its hash in
/// the Content-Security-Policy (no second request, no `'unsafe-inline'`), plus a one-rule
/// style element for the project's accent colour, also allowed by its hash.
///
/// It uses no web fonts (nothing is fetched): system fonts, with Persian ones named first for
/// right-to-left pages. Layout uses logical properties (`margin-inline-start`), so `dir="rtl"`
/// mirrors it. Text contrast is at least 4.5:1 (WCAG AA); the accent's text colour is chosen
/// for contrast (`PageBranding.onAccentColor`); focus is always visible.
enum PageStyle {
    static let stylesheet = """
        *,*::before,*::after{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%;text-size-adjust:100%;color-scheme:light}
        body{margin:0;min-height:100vh;padding:2.5rem 1rem;background:#f3f4f6;color:#1f2328;\
        font:1rem/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",Arial,sans-serif}
        [dir="rtl"] body{font-family:Vazirmatn,"Noto Sans Arabic",Tahoma,"DejaVu Sans",system-ui,sans-serif;line-height:1.8}
        main{display:block;max-width:30rem;margin:0 auto;padding:2rem;background:#ffffff;border:1px solid #d0d7de;\
        border-radius:.75rem;box-shadow:0 1px 3px rgba(31,35,40,.08)}
        .brand{display:flex;align-items:center;gap:.75rem;margin:0 0 1.5rem;color:#424a53;font-weight:600}
        .brand img{display:block;max-height:2.5rem;max-width:10rem;width:auto;height:auto}
        h1{margin:0 0 .75rem;font-size:1.5rem;line-height:1.3}
        p{margin:0 0 1rem}
        main>:last-child{margin-bottom:0}
        .value{display:inline-block;max-width:100%;font-weight:600;overflow-wrap:anywhere}
        .notice{margin:0 0 1.25rem;padding:.75rem 1rem;border-inline-start:.25rem solid #cf222e;border-radius:.375rem;\
        background:#ffebe9;color:#1f2328}
        form{margin:1.5rem 0 0}
        .field{margin:0 0 1rem}
        label{display:block;margin:0 0 .3rem;font-weight:600}
        input[type="password"]{display:block;width:100%;min-height:2.75rem;padding:.5rem .75rem;font:inherit;color:inherit;\
        background:#ffffff;border:1px solid #6e7781;border-radius:.375rem}
        .policy{margin:0 0 1.25rem;padding:.75rem 1rem;background:#f6f8fa;border-radius:.375rem;color:#424a53;font-size:.9375rem}
        .policy p{margin:0 0 .25rem;font-weight:600}
        .policy ul{margin:0;padding-inline-start:1.25rem}
        .button{display:block;width:100%;min-height:2.75rem;margin:1.5rem 0 0;padding:.7rem 1.25rem;font:inherit;font-weight:600;\
        text-align:center;text-decoration:none;color:var(--on-accent);background:var(--accent);border:0;border-radius:.375rem;cursor:pointer}
        form .button{margin-top:.5rem}
        .button:hover{filter:brightness(.92)}
        a{color:#0550ae}
        :focus-visible{outline:3px solid #1f2328;outline-offset:2px;box-shadow:0 0 0 5px #ffffff}
        .hint{margin:1.5rem 0 0;color:#57606a;font-size:.875rem}
        @media (max-width:32rem){body{padding:0;background:#ffffff}main{min-height:100vh;padding:1.5rem 1.25rem;\
        border:0;border-radius:0;box-shadow:none}h1{font-size:1.375rem}}
        """

    /// The stylesheet's CSP source, `'sha256-…'`, computed once.
    static let stylesheetSource = source(of: stylesheet)

    /// The rule that sets the accent colours.
    static func accentRule(_ branding: PageBranding) -> String {
        ":root{--accent:\(branding.accentColor);--on-accent:\(branding.onAccentColor)}"
    }

    /// The CSP source of Hearth's default accent rule, computed once; other accents are hashed
    /// per page (a few dozen bytes).
    private static let defaultAccent = PageBranding(name: "")
    private static let defaultAccentSource = source(of: accentRule(defaultAccent))

    static func accentSource(_ branding: PageBranding) -> String {
        branding.accentColor == defaultAccent.accentColor && branding.onAccentColor == defaultAccent.onAccentColor
            ? defaultAccentSource : source(of: accentRule(branding))
    }

    /// `'sha256-<base64>'` of a style element's exact text, as CSP matches it.
    static func source(of text: String) -> String {
        "'sha256-\(Base64.encode(SHA256.hash(utf8Of: text)))'"
    }
}
