import Foundation
import HearthTestSupport
import Testing

/// A package outside the repository depends on the `Hearth` and `HearthAdmin` products by path
/// and builds, with every ```` ```swift ```` block of `README.md` and `docs/*.md` compiled in it.
///
/// The package is generated under the temporary directory at a path fixed per checkout, next to
/// a link named `hearth` to the repository (so its manifest reads as a user's does:
/// `.package(path: "../hearth")`), and keeps its `.build` between runs: the first build compiles
/// both SDKs and their dependencies from scratch (minutes), later ones only what changed.
@Suite("A package outside the repository")
struct OutsidePackageTests {
    /// Where the package is generated for this checkout.
    static var root: URL {
        let checkout = DocumentationBlocks.repository.path.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return FileManager.default.temporaryDirectory.appendingPathComponent(
            "hearth-outside-package\(String(checkout))",
            isDirectory: true
        )
    }

    static let manifest = """
        // swift-tools-version:6.1
        import PackageDescription

        let package = Package(
            name: "OutsideApp",
            platforms: [.macOS(.v15), .iOS(.v18)],
            dependencies: [.package(path: "../hearth")],
            targets: [
                .executableTarget(
                    name: "OutsideApp",
                    dependencies: [
                        .product(name: "Hearth", package: "hearth"),
                        .product(name: "HearthAdmin", package: "hearth"),
                    ]
                )
            ]
        )

        """

    /// A program that uses both products in one file: the client makes a token, the admin
    /// verifies it (built, not run).
    static let program = """
        import Hearth
        import HearthAdmin

        func clientAndAdmin(baseURL: URL) async throws -> VerifiedInstallationToken {
            let options = HearthOptions(googleAppID: "1:100000000000:ios:0a1b2c3d4e5f6789", gcmSenderID: "100000000000")
            options.apiKey = "demo-api-key"
            options.projectID = "demo-project"
            options.baseURL = baseURL
            HearthApp.configure(options: options)
            let token = try await Installations.installations().authToken().authToken
            let admin = AdminApp(projectID: "demo-project", credential: .bearer("owner"), baseURL: baseURL)
            let settings = ActionCodeSettings()  // one type, from HearthWire through both imports
            settings.url = URL(string: "https://www.example.com/")
            _ = try await admin.auth.generatePasswordResetLink(for: "ada@example.com", actionCodeSettings: settings)
            return try await admin.installations.verifyInstallationToken(token, online: true)
        }

        print("OutsideApp builds on Hearth and HearthAdmin")

        """

    /// The file that compiles one documentation block: its imports first, the rest as the body
    /// of an `async throws` function named after its place.
    static func source(of block: DocumentationBlocks.Block, index: Int) -> String {
        let lines = block.text.split(separator: "\n", omittingEmptySubsequences: false)
        let imports = lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") }
        let body = lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") }
        return """
            // \(block.file):\(block.line)
            \((["import Foundation"] + imports).joined(separator: "\n"))

            func documentationExample\(index)() async throws {
            \(body.map { "    " + $0 }.joined(separator: "\n"))
            }

            """
    }

    @Test(
        "a package outside the repository depends on Hearth and HearthAdmin by path and builds, with the docs' swift blocks in it"
    )
    func outsidePackageBuilds() throws {
        let blocks = DocumentationBlocks.all.filter { $0.info == "swift" }
        #expect(!blocks.isEmpty, "no ```swift block found in the docs")

        let files = FileManager.default
        let root = Self.root
        let package = root.appendingPathComponent("OutsideApp", isDirectory: true)
        let sources = package.appendingPathComponent("Sources/OutsideApp", isDirectory: true)
        let link = root.appendingPathComponent("hearth")
        try files.createDirectory(at: root, withIntermediateDirectories: true)
        if (try? files.destinationOfSymbolicLink(atPath: link.path)) != DocumentationBlocks.repository.path {
            try? files.removeItem(at: link)
            try files.createSymbolicLink(at: link, withDestinationURL: DocumentationBlocks.repository)
        }
        // The sources are written each time (files of blocks gone are removed); `.build`
        // beside them is kept.
        try files.createDirectory(at: sources, withIntermediateDirectories: true)
        try Self.write(Self.manifest, to: package.appendingPathComponent("Package.swift"))
        var written = ["main.swift"]
        try Self.write(Self.program, to: sources.appendingPathComponent("main.swift"))
        for (index, block) in blocks.enumerated() {
            written.append("DocumentationExample\(index).swift")
            try Self.write(Self.source(of: block, index: index), to: sources.appendingPathComponent(written.last!))
        }
        for stale in try files.contentsOfDirectory(atPath: sources.path) where !written.contains(stale) {
            try files.removeItem(at: sources.appendingPathComponent(stale))
        }

        let started = Date()
        let outcome = try HearthCommand.run(
            ["nice", "-n", "10", "swift", "build", "--package-path", package.path],
            executable: "/usr/bin/env",
            timeout: 1_800
        )
        let seconds = Int(Date().timeIntervalSince(started))
        let places = blocks.map { "\($0.file):\($0.line)" }.joined(separator: ", ")
        #expect(
            outcome.status == 0,
            "the outside package did not build after \(seconds) s (blocks: \(places)):\n\(outcome.combined.suffix(6_000))"
        )
        print("OutsidePackageTests: built in \(seconds) s with \(blocks.count) documentation blocks (\(places))")
    }

    /// Writes `text` only when it differs, so an unchanged file does not make a rebuild.
    static func write(_ text: String, to url: URL) throws {
        if (try? String(contentsOf: url, encoding: .utf8)) == text { return }
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
