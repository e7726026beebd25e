#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a project's hosted pages look: its name, its optional logo and accent colour
/// (`settings.logoUrl`, `settings.accentColor`), checked when the configuration is loaded.
public struct PageBranding: Sendable, Equatable {
    /// The name the pages show (`settings.appName`, else the display name).
    public let name: String
    /// The logo's `https` URL, as configured.
    public let logoURL: String?
    /// The logo's origin (`https://host[:port]`), the only source of images the pages allow.
    public let logoOrigin: String?
    /// The accent colour (`#rrggbb`, lower-case) of buttons and links.
    public let accentColor: String
    /// The text colour on the accent colour: black or white, whichever contrasts more.
    public let onAccentColor: String

    /// Hearth's own accent: a blue on which white text has a contrast of 6:1 (WCAG AA asks 4.5:1).
    public static let defaultAccentColor = "#1a5fb4"

    public init(project: Project) {
        name = project.appName
        let origin = project.settings.logoURL.flatMap(Self.logoOrigin)
        logoURL = origin == nil ? nil : project.settings.logoURL
        logoOrigin = origin
        let accent = project.settings.accentColor.flatMap { Self.isColor($0) ? $0.lowercased() : nil }
        accentColor = accent ?? Self.defaultAccentColor
        onAccentColor = Self.contrastingText(on: accentColor)
    }

    /// The branding of a page that belongs to no known project.
    public init(name: String) {
        self.name = name
        logoURL = nil
        logoOrigin = nil
        accentColor = Self.defaultAccentColor
        onAccentColor = Self.contrastingText(on: accentColor)
    }

    /// The origin of a logo URL, or `nil` unless it is an absolute `https` URL that
    /// ``ContinueURL`` accepts (no user-info, spaces, control characters or backslashes) and
    /// holds no quote or angle bracket.
    public static func logoOrigin(_ url: String) -> String? {
        guard let parsed = try? ContinueURL(url), parsed.scheme == "https",
            !url.utf8.contains(where: { Self.unsafeInAttributes.contains($0) })
        else { return nil }
        return "https://" + parsed.host + (parsed.port.map { ":\($0)" } ?? "")
    }

    private static let unsafeInAttributes: Set<UInt8> = Set("\"'<>".utf8)

    /// Whether `text` is a colour written `#rrggbb`.
    public static func isColor(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return utf8.count == 7 && utf8[0] == UInt8(ascii: "#")
            && utf8.dropFirst().allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
            }
    }

    /// `#ffffff` or `#000000`, whichever has the higher WCAG contrast ratio with `color`.
    static func contrastingText(on color: String) -> String {
        let luminance = relativeLuminance(color)
        let withWhite = 1.05 / (luminance + 0.05)
        let withBlack = (luminance + 0.05) / 0.05
        return withWhite >= withBlack ? "#ffffff" : "#000000"
    }

    /// WCAG 2's relative luminance of a `#rrggbb` colour.
    static func relativeLuminance(_ color: String) -> Double {
        let digits = Array(color.utf8.dropFirst())
        func channel(_ index: Int) -> Double {
            let text = String(decoding: digits[index..<index + 2], as: UTF8.self)
            let value = Double(UInt8(text, radix: 16) ?? 0) / 255
            return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
    }
}
