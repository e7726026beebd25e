/// The fixed development project `hearth serve` runs when given no configuration. Tests and
/// examples rely on these exact values.
public enum DevelopmentSeed {
    public static let projectID = "demo-project"
    public static let projectNumber = "100000000000"
    public static let apiKey = "demo-api-key"
    public static let webAppID = "1:100000000000:web:0a1b2c3d4e5f6789"
    public static let iosAppID = "1:100000000000:ios:0a1b2c3d4e5f6789"
    public static let androidAppID = "1:100000000000:android:0a1b2c3d4e5f6789"
    /// The admin credential the seed project accepts, and no other project ever does.
    public static let adminCredential = "owner"

    public static let project = Project(
        id: projectID,
        number: projectNumber,
        displayName: "Demo Project",
        apiKeys: [apiKey],
        apps: [
            App(id: webAppID, platform: .web),
            App(
                id: iosAppID,
                platform: .ios,
                bundleID: "com.example.ios",
                teamID: "ABCDE12345",
                appStoreID: "1234567890"
            ),
            App(
                id: androidAppID,
                platform: .android,
                packageName: "com.example.android",
                sha256CertificateFingerprints: [
                    "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
                ]
            ),
        ],
        authorizedDomains: ["localhost", "127.0.0.1", "www.example.com"],
        linkDomains: ["custom-domain.com"]
    )
}
