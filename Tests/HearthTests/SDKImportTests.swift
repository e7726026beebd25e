import Foundation
import Testing

/// What the SDKs' sources import: `Hearth`, `HearthWire` and `HearthTransport` only Foundation
/// (and the system modules beside it) and each other; `HearthAdmin` also the package's crypto
/// module, and nothing of the server.
@Suite("The SDKs' imports")
struct SDKImportTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    static let system: Set<String> = ["Foundation", "FoundationEssentials", "FoundationNetworking", "Synchronization"]

    /// The modules every Swift file under `Sources/<target>` imports.
    static func imports(of target: String) throws -> Set<String> {
        let directory = sources.appendingPathComponent(target)
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        var modules: Set<String> = []
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ").filter {
                    !$0.hasPrefix("@") && $0 != "public" && $0 != "internal"
                }
                if words.first == "import", words.count >= 2 { modules.insert(String(words[1])) }
            }
        }
        return modules
    }

    @Test("Hearth, HearthWire and HearthTransport import Foundation and each other only (Security on Apple platforms)")
    func clientSide() throws {
        #expect(try Self.imports(of: "HearthWire").subtracting(Self.system).isEmpty)
        #expect(try Self.imports(of: "HearthTransport").subtracting(Self.system).isEmpty)
        #expect(
            try Self.imports(of: "Hearth").subtracting(Self.system) == ["HearthWire", "HearthTransport", "Security"]
        )
    }

    @Test("HearthAdmin imports the shared modules and HearthCrypto, nothing of the server")
    func adminSide() throws {
        #expect(
            try Self.imports(of: "HearthAdmin").subtracting(Self.system) == [
                "HearthWire", "HearthTransport", "HearthCrypto",
            ]
        )
    }
}
